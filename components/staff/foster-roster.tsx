"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/components/staff/form-alert";
import { FosterForm } from "@/components/staff/foster-form";
import {
  FOSTER_STATUS_LABELS,
  FOSTER_STATUS_TONES,
  blackoutOn,
  comingBlackouts,
  formatDay,
  speciesText,
  SPECIES_LABELS,
  today,
  type FosterStatus,
} from "@/components/staff/foster-labels";
import { FOSTER_SPECIES, FOSTER_STATUSES, type FosterSpecies, type Person } from "@/lib/people/schemas";
import { dangerButtonClass, inputClass, labelClass, linkClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useErasePerson, useFosters, type FosterFilters } from "@/components/staff/use-people";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";
import type { CountryChoice } from "@/lib/site/countries";

const tap = "min-h-11 px-4";

/**
 * The organisation's fosters: who they are, whether they can take an animal
 * (status, room, species, blackouts), filtered; beside them the form that
 * adds one or changes the one opened; removing one erases their personal
 * data (the placements' history stays, as a former foster's).
 */
export function FosterRoster({ organizationId, countries }: { organizationId: number; countries: CountryChoice[] }) {
  const [filters, setFilters] = useState<FosterFilters>({});
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<Person | null>(null);
  const [news, setNews] = useState<string | null>(null);
  const fosters = useFosters(organizationId, filters);
  const people = fosters.data?.pages.flatMap((p) => p.people) ?? [];
  const day = today();
  const filtered = filters.status !== undefined || filters.species !== undefined || !!filters.hasRoomToday || !!filters.q;

  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters((f) => ({ ...f, q: search.trim() || undefined }));
  };
  const sessionGone = fosters.error instanceof ApiClientError && (fosters.error.status === 401 || fosters.error.status === 403);

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_28rem]">
      <section aria-labelledby="fosters-heading" className="min-w-0 space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="fosters-heading" className="text-lg font-semibold">
            Roster
          </h2>
          <div className="flex flex-wrap gap-2">
            <a href="#foster-form" onClick={() => setEditing(null)} className={`${primaryButtonClass} min-h-11 lg:hidden`}>
              Add a foster
            </a>
          </div>
        </div>

        <form onSubmit={applySearch} aria-label="Filter the fosters" className={`${panelClass} grid gap-4 sm:grid-cols-2`}>
          <div>
            <label htmlFor="fosters-status" className={labelClass}>
              Status
            </label>
            <select
              id="fosters-status"
              value={filters.status ?? ""}
              onChange={(e) => setFilters((f) => ({ ...f, status: FOSTER_STATUSES.find((s) => s === e.target.value) as FosterStatus | undefined }))}
              className={inputClass(false)}
            >
              <option value="">Any status</option>
              {FOSTER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {FOSTER_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="fosters-species" className={labelClass}>
              Takes
            </label>
            <select
              id="fosters-species"
              value={filters.species ?? ""}
              onChange={(e) => setFilters((f) => ({ ...f, species: FOSTER_SPECIES.find((s) => s === e.target.value) as FosterSpecies | undefined }))}
              className={inputClass(false)}
            >
              <option value="">Any animal</option>
              {FOSTER_SPECIES.map((s) => (
                <option key={s} value={s}>
                  {SPECIES_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="sm:col-span-2">
            <label htmlFor="fosters-q" className={labelClass}>
              Name or email
            </label>
            <div className="mt-1 flex gap-2">
              <input id="fosters-q" type="search" value={search} onChange={(e) => setSearch(e.target.value)} className={`${inputClass(false)} mt-0`} />
              <button type="submit" className={`${secondaryButtonClass} ${tap}`}>
                Search
              </button>
            </div>
          </div>
          <label className="inline-flex min-h-11 items-center gap-2 self-end text-stone-800">
            <input
              type="checkbox"
              checked={!!filters.hasRoomToday}
              onChange={(e) => setFilters((f) => ({ ...f, hasRoomToday: e.target.checked || undefined }))}
              className="h-5 w-5 accent-emerald-700"
            />
            Has room today
          </label>
        </form>

        <div role="status" className="text-sm font-medium text-emerald-900 empty:hidden">
          {news}
        </div>

        {fosters.isPending ? (
          <p className="text-stone-700">Loading the fosters…</p>
        ) : fosters.isError && !fosters.data ? (
          <FormAlert>
            Could not load the fosters. {describeError(fosters.error)}{" "}
            {sessionGone ? (
              <a href="/staff/sign-in?next=/staff/fosters" className={linkClass}>
                Sign in as staff
              </a>
            ) : (
              <button type="button" onClick={() => void fosters.refetch()} className={secondaryButtonClass}>
                Try again
              </button>
            )}
          </FormAlert>
        ) : people.length === 0 ? (
          <p className={`${panelClass} text-stone-700`}>{filtered ? "No foster matches these filters." : "No fosters yet. Add the first one with the form."}</p>
        ) : (
          <>
            <p className="text-sm text-stone-700">
              {people.length} foster{people.length === 1 ? "" : "s"}
              {fosters.hasNextPage ? " shown; there are more" : ""}
              {filtered ? " matching the filters" : ""}.
            </p>
            <ul aria-label="Fosters" className={`grid gap-3 xl:grid-cols-2 ${fosters.isPlaceholderData ? "opacity-60" : ""}`}>
              {people.map((person) => (
                <FosterCard
                  key={person.id}
                  person={person}
                  day={day}
                  organizationId={organizationId}
                  onEdit={() => setEditing(person)}
                  onErased={(name) => {
                    setNews(`Erased ${name}’s personal data. Their placements stay in the animals’ records as a former foster’s.`);
                    if (editing?.id === person.id) setEditing(null);
                  }}
                />
              ))}
            </ul>
            {fosters.hasNextPage ? (
              <button
                type="button"
                onClick={() => void fosters.fetchNextPage()}
                disabled={fosters.isFetchingNextPage}
                className={`${secondaryButtonClass} ${tap}`}
              >
                {fosters.isFetchingNextPage ? "Loading more…" : "Show more fosters"}
              </button>
            ) : null}
          </>
        )}
      </section>

      <div id="foster-form" className="scroll-mt-4 lg:sticky lg:top-4">
        <FosterForm
          key={editing?.id ?? "new"}
          organizationId={organizationId}
          person={editing}
          countries={countries}
          onCancel={editing ? () => setEditing(null) : undefined}
          onDone={(saved, added) => {
            setNews(added ? `Added ${saved.name ?? "the foster"}.` : `Saved ${saved.name ?? "the foster"}.`);
            setEditing(null);
          }}
        />
      </div>
    </div>
  );
}

function StatusBadge({ status }: { status: FosterStatus }) {
  return (
    <span className={`inline-flex rounded-full border px-2.5 py-0.5 text-sm font-semibold ${FOSTER_STATUS_TONES[status]}`}>{FOSTER_STATUS_LABELS[status]}</span>
  );
}

function FosterCard({
  person,
  day,
  organizationId,
  onEdit,
  onErased,
}: {
  person: Person;
  day: string;
  organizationId: number;
  onEdit: () => void;
  onErased: (name: string) => void;
}) {
  const headingId = useId();
  const foster = person.foster;
  const name = person.name ?? (person.erased ? "Erased person" : "Unnamed");
  const away = foster ? blackoutOn(foster.blackouts, day) : undefined;
  const coming = foster ? comingBlackouts(foster.blackouts, day).filter((b) => b !== away) : [];
  const place = [person.address?.city, person.address?.region].filter(Boolean).join(", ");
  return (
    <li aria-labelledby={headingId} className={`${panelClass} flex flex-col gap-3 sm:p-5`} data-person={person.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold break-words">
          {name}
        </h3>
        {foster ? <StatusBadge status={foster.status} /> : null}
      </div>
      {foster ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-semibold text-stone-700">Placed</dt>
          <dd>
            {foster.placedCount} of {foster.capacity}
            {" · "}
            {foster.room > 0 ? <span className="text-emerald-900">room for {foster.room} more</span> : <span className="font-semibold text-red-800">full</span>}
          </dd>
          <dt className="font-semibold text-stone-700">Takes</dt>
          <dd>{speciesText(foster.species)}</dd>
          {away || coming.length > 0 ? (
            <>
              <dt className="font-semibold text-stone-700">Away</dt>
              <dd>
                {away ? <span className="font-semibold text-amber-900">Now, until {formatDay(away.to)}</span> : null}
                {away && coming.length > 0 ? "; " : null}
                {coming.map((b) => `${formatDay(b.from)} – ${formatDay(b.to)}`).join("; ")}
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {person.email || person.phone || place ? (
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {person.email ? (
            <a href={`mailto:${person.email}`} className={`${linkClass} break-all`}>
              {person.email}
            </a>
          ) : null}
          {person.phone ? (
            <a href={`tel:${person.phone.replace(/[^+\d]/g, "")}`} className={linkClass}>
              {person.phone}
            </a>
          ) : null}
          {place ? <span className="text-stone-700">{place}</span> : null}
        </p>
      ) : null}
      {person.notes ? <p className="line-clamp-3 text-sm whitespace-pre-line text-stone-700">{person.notes}</p> : null}
      {person.erased ? null : <FosterActions person={person} name={name} organizationId={organizationId} onEdit={onEdit} onErased={onErased} />}
    </li>
  );
}

/** Edit, and remove in two steps (the second says what removing does); a refusal is said in the card. */
function FosterActions({
  person,
  name,
  organizationId,
  onEdit,
  onErased,
}: {
  person: Person;
  name: string;
  organizationId: number;
  onEdit: () => void;
  onErased: (name: string) => void;
}) {
  const erase = useErasePerson(organizationId);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const run = async () => {
    setProblem(null);
    try {
      await erase.mutateAsync(person.id);
      onErased(name);
    } catch (error) {
      setConfirming(false);
      setProblem(
        error instanceof ApiClientError && error.status === 409
          ? `${name} still has an animal placed with them, so they cannot be removed yet. Bring the animal back to the shelter or move it to another foster first (on the animal’s page). ${error.message}`
          : `Could not remove ${name}. ${describeError(error)}`,
      );
    }
  };

  return (
    <div className="mt-auto space-y-3 border-t border-stone-200 pt-3">
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      {confirming ? (
        <div className="space-y-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950">
          <p>
            Remove {name}? Their name, contact, address and notes are erased for good. The animals&rsquo; records keep their placements, as a former
            foster&rsquo;s.
          </p>
          <div className="flex flex-wrap gap-2">
            <button ref={confirmRef} type="button" onClick={() => void run()} disabled={erase.isPending} className={`${dangerButtonClass} ${tap}`}>
              {erase.isPending ? "Removing…" : `Remove ${name}`}
            </button>
            <button type="button" onClick={() => setConfirming(false)} className={`${secondaryButtonClass} ${tap}`}>
              Keep
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" onClick={onEdit} className={`${secondaryButtonClass} ${tap}`} aria-label={`Edit ${name}`}>
            Edit
          </button>
          <button type="button" onClick={() => setConfirming(true)} className={`${secondaryButtonClass} ${tap}`} aria-label={`Remove ${name}`}>
            Remove
          </button>
        </div>
      )}
    </div>
  );
}
