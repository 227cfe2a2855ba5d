"use client";

import { useId, useState, type FormEvent } from "react";
import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { FOSTER_STATUS_LABELS, PLACEMENT_REFUSALS, blackoutOn, formatDay, speciesText, today, whyNotPlaceable } from "@/components/staff/foster-labels";
import type { Placement } from "@/lib/placements/schemas";
import type { FosterSpecies, Person } from "@/lib/people/schemas";
import { hintClass, inputClass, labelClass, linkClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useFosterChoices } from "@/components/staff/use-people";
import { useEndPlacement, usePetPlacements, usePlacePet, type EndReason } from "@/components/staff/use-placements";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";

const END_REASONS: Record<EndReason | "stayEnded", string> = {
  returnedToShelter: "back to the shelter",
  movedToAnotherFoster: "moved to another foster",
  other: "ended",
  stayEnded: "left care",
};

const tap = "min-h-11 px-4";

/** A refusal of the API, said for staff: what to do, then the API's own words. */
function problemOf(error: unknown): string {
  if (error instanceof ApiClientError) {
    const advice = PLACEMENT_REFUSALS[error.code];
    if (advice) return `${advice} (${error.message})`;
    if (error.details.length > 0) return `${error.message} ${error.details.map((d) => `${d.field}: ${d.issue}`).join("; ")}`;
  }
  return describeError(error);
}

/**
 * Where the animal is (at the shelter, or with which foster since when,
 * expected back when, overdue marked), its placements oldest first, and the
 * next step: place it with a foster, or move it on or bring it back.
 */
export function PetFosterCare({
  petId,
  petName,
  organizationId,
  species,
}: {
  petId: number;
  petName: string;
  organizationId: number;
  /** The animal's species by its category, when the categories are loaded: fosters who take others are shown why not. */
  species: FosterSpecies | undefined;
}) {
  const placements = usePetPlacements(petId);
  const day = today();
  const fosters = useFosterChoices(organizationId);
  const people = new Map(fosters.data?.all.map((p) => [p.id, p]) ?? []);
  const nameOf = (personId: number | null) =>
    personId === null ? "An unnamed foster" : (people.get(personId)?.name ?? (people.get(personId)?.erased ? "A former foster" : `Foster #${personId}`));
  const open = placements.data?.find((p) => p.endAt === null);
  // Said above the form, which starts afresh once the animal has moved.
  const [done, setDone] = useState<string | null>(null);

  return (
    <section aria-labelledby="pet-foster-heading" className={`${panelClass} space-y-4`}>
      <h2 id="pet-foster-heading" className="text-lg font-semibold">
        Foster care
      </h2>
      {placements.isPending ? (
        <p role="status" className="text-stone-700">
          Loading the placements…
        </p>
      ) : placements.isError ? (
        <FormAlert>
          Could not load the placements. {describeError(placements.error)}{" "}
          <button type="button" onClick={() => void placements.refetch()} className={secondaryButtonClass}>
            Try again
          </button>
        </FormAlert>
      ) : (
        <>
          <div role="status" className="text-sm font-medium text-emerald-900 empty:hidden">
            {done}
          </div>
          <WhereNow open={open} name={open ? nameOf(open.personId) : ""} petName={petName} day={day} />
          {placements.data.length > 0 ? (
            <div>
              <h3 className="font-semibold">Placements</h3>
              <ol aria-label={`Placements of ${petName}, oldest first`} className="mt-1 divide-y divide-stone-200">
                {placements.data.map((p) => (
                  <li key={p.id} className="py-2 text-sm" data-placement={p.id}>
                    <p>
                      <span className="font-semibold">{nameOf(p.personId)}</span>
                      {p.capacityOverridden ? (
                        <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950">over capacity</span>
                      ) : null}
                    </p>
                    <p className="text-stone-700">
                      <DateTime iso={p.startAt} /> –{" "}
                      {p.endAt ? (
                        <>
                          <DateTime iso={p.endAt} /> ({END_REASONS[p.endReason as EndReason] ?? p.endReason})
                        </>
                      ) : (
                        <span className="font-semibold text-emerald-900">now</span>
                      )}
                    </p>
                    {p.note ? <p className="text-stone-700">{p.note}</p> : null}
                  </li>
                ))}
              </ol>
            </div>
          ) : null}
          {fosters.isError ? (
            <FormAlert>
              Could not load the fosters to choose from. {describeError(fosters.error)}{" "}
              <button type="button" onClick={() => void fosters.refetch()} className={secondaryButtonClass}>
                Try again
              </button>
            </FormAlert>
          ) : (
            <PlaceForm
              key={open?.id ?? "none"}
              petId={petId}
              organizationId={organizationId}
              open={open}
              openName={open ? nameOf(open.personId) : ""}
              fosters={fosters.data?.all}
              withRoom={fosters.data?.withRoom}
              species={species}
              day={day}
              onDone={setDone}
            />
          )}
        </>
      )}
    </section>
  );
}

function WhereNow({ open, name, petName, day }: { open: Placement | undefined; name: string; petName: string; day: string }) {
  if (!open)
    return (
      <p className="rounded-md border border-stone-200 bg-stone-50 px-4 py-3">
        <span className="font-semibold">Now:</span> {petName} is at the shelter.
      </p>
    );
  const overdue = open.expectedEndOn !== null && open.expectedEndOn < day;
  return (
    <div className={`rounded-md border px-4 py-3 ${overdue ? "border-red-300 bg-red-50 text-red-950" : "border-emerald-200 bg-emerald-50 text-emerald-950"}`}>
      <p>
        <span className="font-semibold">Now:</span> with <span className="font-semibold">{name}</span> since <DateTime iso={open.startAt} />.
      </p>
      {open.expectedEndOn ? (
        <p className={overdue ? "font-semibold" : undefined}>
          {overdue ? "Overdue: was expected back " : "Expected back "}
          {formatDay(open.expectedEndOn)}.
        </p>
      ) : null}
    </div>
  );
}

/** Why a foster is offered but cannot be chosen, as the option says it. */
function reasonText(person: Person, day: string, species: FosterSpecies | undefined): string | undefined {
  const why = whyNotPlaceable(person, day, species);
  const foster = person.foster;
  if (!foster || !why) return undefined;
  if (why === "notActive") return FOSTER_STATUS_LABELS[foster.status].toLowerCase();
  if (why === "blackout") return `away until ${formatDay(blackoutOn(foster.blackouts, day)!.to)}`;
  if (why === "species") return `takes ${speciesText(foster.species).toLowerCase()} only`;
  return `full, ${foster.placedCount} of ${foster.capacity}`;
}

/**
 * Place the animal with a foster, or (once placed) move it to another, or
 * bring it back. Fosters who can take it today come first; the others are
 * listed disabled with the reason, and full ones become choosable when
 * staff tick "Place even though full".
 */
function PlaceForm({
  petId,
  organizationId,
  open,
  openName,
  fosters,
  withRoom,
  species,
  day,
  onDone,
}: {
  petId: number;
  organizationId: number;
  open: Placement | undefined;
  openName: string;
  fosters: Person[] | undefined;
  withRoom: Set<number> | undefined;
  species: FosterSpecies | undefined;
  day: string;
  onDone: (news: string | null) => void;
}) {
  const id = useId();
  const place = usePlacePet(petId, organizationId);
  const end = useEndPlacement(petId, organizationId);
  const [personId, setPersonId] = useState("");
  const [expected, setExpected] = useState("");
  const [note, setNote] = useState("");
  const [override, setOverride] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const candidates = (fosters ?? []).filter((p) => p.foster && !p.erased && p.id !== open?.personId);
  // withRoom is the API's hasRoom (active, room, no blackout); the species is held against the animal's here.
  const reason = (p: Person) =>
    withRoom?.has(p.id) && whyNotPlaceable(p, day, species) !== "species" ? undefined : (reasonText(p, day, species) ?? "cannot take an animal today");
  const choosable = (p: Person) => !reason(p) || (override && whyNotPlaceable(p, day, species) === "full");
  const ordered = [...candidates].sort((a, b) => Number(!!reason(a)) - Number(!!reason(b)) || (a.name ?? "").localeCompare(b.name ?? "", "en"));
  const chosen = candidates.find((p) => String(p.id) === personId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    onDone(null);
    if (!chosen) {
      setProblem("Choose a foster first.");
      document.getElementById(`${id}-foster`)?.focus();
      return;
    }
    const body = {
      personId: chosen.id,
      ...(expected ? { expectedEndOn: expected } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(override ? { overrideCapacity: true } : {}),
    };
    // mutateAsync, not mutate's callbacks: once the animal has moved this form
    // is replaced (its key), and a replaced form's callbacks never run.
    const news = open ? `Moved to ${chosen.name}.` : `Placed with ${chosen.name}.`;
    place.mutateAsync(body).then(
      () => onDone(news),
      (error: unknown) => setProblem(problemOf(error)),
    );
  };
  const backToShelter = () => {
    if (!open) return;
    setProblem(null);
    onDone(null);
    end.mutateAsync({ placementId: open.id, reason: "returnedToShelter" }).then(
      () => onDone(`Back at the shelter from ${openName}.`),
      (error: unknown) => setProblem(problemOf(error)),
    );
  };

  const heading = open ? "Move to another foster" : "Place with a foster";
  return (
    <div className="space-y-4 border-t border-stone-200 pt-4">
      {open ? (
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" onClick={backToShelter} disabled={end.isPending} className={`${primaryButtonClass} min-h-11`}>
            {end.isPending ? "Recording…" : "Back to the shelter"}
          </button>
          <span className={hintClass}>Ends the placement with {openName} now.</span>
        </div>
      ) : null}
      <form onSubmit={submit} aria-label={heading} noValidate className="space-y-3">
        <h3 className="font-semibold">{heading}</h3>
        {fosters === undefined ? (
          <p role="status" className="text-stone-700">
            Loading the fosters…
          </p>
        ) : candidates.length === 0 ? (
          <p className="text-stone-700">
            {open ? "There is no other foster." : "There are no fosters yet."}{" "}
            <a href="/staff/fosters" className={linkClass}>
              Add one on the Fosters page
            </a>
            .
          </p>
        ) : (
          <>
            <div>
              <label htmlFor={`${id}-foster`} className={labelClass}>
                Foster
              </label>
              <p id={`${id}-foster-hint`} className={hintClass}>
                Active fosters with room today are listed first; the others say why they cannot take an animal.
              </p>
              <select
                id={`${id}-foster`}
                value={personId}
                onChange={(e) => setPersonId(e.target.value)}
                aria-describedby={`${id}-foster-hint`}
                className={inputClass(false)}
              >
                <option value="">Choose a foster</option>
                {ordered.map((p) => (
                  <option key={p.id} value={p.id} disabled={!choosable(p)}>
                    {p.name}
                    {p.foster ? ` (${p.foster.placedCount} of ${p.foster.capacity})` : ""}
                    {reason(p) ? `: ${reason(p)}` : ""}
                  </option>
                ))}
              </select>
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor={`${id}-expected`} className={labelClass}>
                  Expected back (optional)
                </label>
                <input
                  id={`${id}-expected`}
                  type="date"
                  min={day}
                  value={expected}
                  onChange={(e) => setExpected(e.target.value)}
                  className={inputClass(false)}
                />
              </div>
              <div>
                <label htmlFor={`${id}-note`} className={labelClass}>
                  Note (optional)
                </label>
                <input id={`${id}-note`} type="text" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} className={inputClass(false)} />
              </div>
            </div>
            <label className="flex min-h-11 items-center gap-2 text-stone-800">
              <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} className="h-5 w-5 shrink-0 accent-emerald-700" />
              Place even though full
            </label>
          </>
        )}
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        {candidates.length > 0 ? (
          <button type="submit" disabled={place.isPending} className={open ? `${secondaryButtonClass} ${tap}` : `${primaryButtonClass} min-h-11`}>
            {place.isPending ? "Recording…" : open ? "Move" : "Place"}
          </button>
        ) : null}
      </form>
    </div>
  );
}
