"use client";

import { useId, useState } from "react";
import { usePetCategories } from "@/components/pets/use-pet-categories";
import { FormAlert } from "@/components/staff/form-alert";
import { formatDay } from "@/components/staff/foster-labels";
import type { CustodyEntry } from "@/lib/placements/schemas";
import { linkClass, panelClass, secondaryButtonClass } from "@/components/staff/styles";
import { useCustody } from "@/components/staff/use-placements";
import { describeError } from "@/lib/site/api-client";

type Fostered = CustodyEntry & { custody: Extract<CustodyEntry["custody"], { kind: "foster" }> };

interface FosterGroup {
  key: string;
  name: string;
  animals: Fostered[];
  overdue: number;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, "en");
const sinceFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });

/** The fostered animals by foster: those with an overdue return first, then by name; overdue animals first within each. */
function groupByFoster(fostered: Fostered[]): FosterGroup[] {
  const groups = new Map<string, FosterGroup>();
  for (const entry of fostered) {
    const key = entry.custody.personId === null ? "unnamed" : String(entry.custody.personId);
    const group = groups.get(key) ?? { key, name: entry.custody.personName ?? "An unnamed foster", animals: [], overdue: 0 };
    group.animals.push(entry);
    if (entry.custody.overdue) group.overdue += 1;
    groups.set(key, group);
  }
  for (const g of groups.values()) g.animals.sort((a, b) => Number(b.custody.overdue) - Number(a.custody.overdue) || byName(a, b));
  return [...groups.values()].sort((a, b) => Number(b.overdue > 0) - Number(a.overdue > 0) || byName(a, b));
}

/**
 * Where every animal in care is now, from the custody API: with each foster
 * (grouped, overdue returns marked and first), then those at the shelter.
 */
export function FosterBoard({ organizationId }: { organizationId: number }) {
  const custody = useCustody(organizationId);
  const categories = usePetCategories(undefined);
  const [onlyOverdue, setOnlyOverdue] = useState(false);
  const categoryName = new Map(categories.data?.map((c) => [c.id, c.name]) ?? []);

  if (custody.isPending) return <p className="text-stone-700">Loading where the animals are…</p>;
  if (custody.isError)
    return (
      <FormAlert>
        Could not load where the animals are. {describeError(custody.error)}{" "}
        <button type="button" onClick={() => void custody.refetch()} className={secondaryButtonClass}>
          Try again
        </button>
      </FormAlert>
    );

  const fostered = custody.data.filter((e): e is Fostered => e.custody.kind === "foster");
  const atShelter = custody.data.filter((e) => e.custody.kind === "shelter").sort(byName);
  const overdue = fostered.filter((e) => e.custody.overdue).length;
  const groups = groupByFoster(onlyOverdue ? fostered.filter((e) => e.custody.overdue) : fostered);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-stone-800">
          <strong>{custody.data.length}</strong> in care: <strong>{atShelter.length}</strong> at the shelter, <strong>{fostered.length}</strong> in foster homes
          {overdue > 0 ? (
            <>
              {" "}
              (<strong className="text-red-800">{overdue} overdue</strong>)
            </>
          ) : null}
          .
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <label className="inline-flex min-h-11 items-center gap-2 text-stone-800">
            <input type="checkbox" checked={onlyOverdue} onChange={(e) => setOnlyOverdue(e.target.checked)} className="h-5 w-5 accent-emerald-700" />
            Only overdue returns
          </label>
          <button type="button" onClick={() => void custody.refetch()} disabled={custody.isFetching} className={`${secondaryButtonClass} min-h-11 px-4`}>
            {custody.isFetching ? "Refreshing…" : "Refresh"}
          </button>
        </div>
      </div>

      <section aria-labelledby="board-fostered" className="space-y-3">
        <h2 id="board-fostered" className="text-lg font-semibold">
          With fosters
        </h2>
        {groups.length === 0 ? (
          <p className={`${panelClass} text-stone-700`}>{onlyOverdue ? "No return is overdue." : "No animal is in a foster home."}</p>
        ) : (
          <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
            {groups.map((group) => (
              <FosterGroupCard key={group.key} group={group} categoryName={categoryName} />
            ))}
          </ul>
        )}
      </section>

      {onlyOverdue ? null : (
        <section aria-labelledby="board-shelter" className="space-y-3">
          <h2 id="board-shelter" className="text-lg font-semibold">
            At the shelter
          </h2>
          {atShelter.length === 0 ? (
            <p className={`${panelClass} text-stone-700`}>No animal is at the shelter.</p>
          ) : (
            <ul aria-labelledby="board-shelter" className={`${panelClass} grid gap-x-6 gap-y-1 sm:grid-cols-2 xl:grid-cols-4`}>
              {atShelter.map((entry) => (
                <li key={entry.petId} className="flex min-h-11 items-center justify-between gap-2 border-b border-stone-100 last:border-0 sm:border-0">
                  <a href={`/pets/${entry.petId}`} className={`${linkClass} break-words`}>
                    {entry.name}
                  </a>
                  <span className="text-sm text-stone-600">{categoryName.get(entry.categoryId) ?? ""}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}

function FosterGroupCard({ group, categoryName }: { group: FosterGroup; categoryName: Map<number, string> }) {
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className={`${panelClass} space-y-3 sm:p-5 ${group.overdue > 0 ? "border-red-300 ring-1 ring-red-200" : ""}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="font-semibold break-words">
          {group.name}
        </h3>
        <span className="text-sm text-stone-700">
          {group.animals.length} animal{group.animals.length === 1 ? "" : "s"}
        </span>
      </div>
      <ul className="divide-y divide-stone-100">
        {group.animals.map((entry) => (
          <li key={entry.petId} className={`py-2 first:pt-0 last:pb-0 ${entry.custody.overdue ? "-mx-2 rounded-md bg-red-50 px-2" : ""}`}>
            <div className="flex flex-wrap items-center justify-between gap-x-2">
              <a href={`/pets/${entry.petId}`} className={`${linkClass} inline-flex min-h-11 items-center break-words sm:min-h-0`}>
                {entry.name}
              </a>
              <span className="text-sm text-stone-600">{categoryName.get(entry.categoryId) ?? ""}</span>
            </div>
            <p className="text-sm text-stone-700">
              Since {sinceFormat.format(new Date(entry.custody.since))}
              {entry.custody.expectedEndOn ? (
                entry.custody.overdue ? (
                  <>
                    {" · "}
                    <span className="font-semibold text-red-800">Overdue: expected back {formatDay(entry.custody.expectedEndOn)}</span>
                  </>
                ) : (
                  <> · expected back {formatDay(entry.custody.expectedEndOn)}</>
                )
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </li>
  );
}
