"use client";

import { ACTION_LABELS, INTAKE_LABELS, OUTCOME_LABELS } from "@/lib/stays/labels";
import { FIELD_LABELS, describeValue, fieldChanges, type FieldChange } from "@/lib/pets/history-format";
import type { HistoryEntry } from "@/lib/pets/schemas/history";
import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { STATUS_LABELS } from "@/components/pets/browse-query";
import { panelClass, secondaryButtonClass } from "@/components/staff/styles";
import { HISTORY_SHOWN, usePetHistory } from "@/components/staff/use-pet-history";
import { describeError } from "@/lib/site/api-client";
import type { Category } from "@/lib/pets/schemas/pet";
import type { PetStatus } from "@/lib/pets/schemas/fields";

function Value({ change, side, categories }: { change: FieldChange; side: "before" | "after"; categories: Category[] | undefined }) {
  const value = change[side];
  if (change.field === "status") return <>{STATUS_LABELS[value as PetStatus] ?? String(value)}</>;
  if (change.field === "categoryId") return <>{categories?.find((c) => c.id === value)?.name ?? `Category ${String(value)}`}</>;
  return <>{describeValue(change.field, value)}</>;
}

function Who({ actor }: { actor: HistoryEntry["actor"] }) {
  return actor.kind === "staff" ? (
    <>
      staff <span className="break-all">{actor.email}</span>
    </>
  ) : (
    <>
      API key “<span className="break-all">{actor.name}</span>” (#{actor.id})
    </>
  );
}

/** The animal's audit trail, newest first: staff only, below its profile. */
export function PetHistory({ petId, categories }: { petId: number; categories: Category[] | undefined }) {
  const history = usePetHistory(petId, true);
  return (
    <section aria-labelledby="pet-history-heading" className={`${panelClass} space-y-4`}>
      <h2 id="pet-history-heading" className="text-lg font-semibold">
        History
      </h2>
      {history.isPending ? (
        <p role="status" className="text-stone-700">
          Loading the history…
        </p>
      ) : history.isError ? (
        <FormAlert>
          Could not load the history. {describeError(history.error)}{" "}
          <button type="button" onClick={() => void history.refetch()} className={secondaryButtonClass}>
            Try again
          </button>
        </FormAlert>
      ) : history.data.entries.length === 0 ? (
        <p className="text-stone-700">No changes recorded: this animal was loaded with the demo data and has not been changed since.</p>
      ) : (
        <>
          <ol aria-label="Changes, newest first" className="divide-y divide-stone-200">
            {history.data.entries.map((entry) => (
              <li key={entry.id} className="py-3 first:pt-0 last:pb-0">
                <p className="text-sm text-stone-700">
                  <DateTime iso={entry.at} /> · <strong className="text-stone-900">{ACTION_LABELS[entry.action] ?? "Changed"}</strong> by{" "}
                  <Who actor={entry.actor} />
                </p>
                {entry.stay && entry.action.startsWith("stay_") ? (
                  <p className="mt-1 text-sm">
                    {entry.stay.outcome
                      ? `${OUTCOME_LABELS[entry.stay.outcome.type]}${entry.stay.outcome.subtype ? ` (${entry.stay.outcome.subtype})` : ""}`
                      : `${INTAKE_LABELS[entry.stay.intake.type]}${entry.stay.intake.subtype ? ` (${entry.stay.intake.subtype})` : ""}`}
                  </p>
                ) : null}
                <ul className="mt-1 space-y-0.5">
                  {fieldChanges(entry).map((change) => (
                    <li key={change.field}>
                      <span className="font-semibold">{FIELD_LABELS[change.field]}:</span>{" "}
                      {change.before === undefined ? (
                        <Value change={change} side="after" categories={categories} />
                      ) : (
                        <>
                          <Value change={change} side="before" categories={categories} />{" "}
                          <span role="img" aria-label="to">
                            →
                          </span>{" "}
                          <Value change={change} side="after" categories={categories} />
                        </>
                      )}
                    </li>
                  ))}
                </ul>
                <p className="mt-1 font-mono text-xs text-stone-600">
                  version {entry.version} · request {entry.requestId}
                </p>
              </li>
            ))}
          </ol>
          {history.data.more ? (
            <p className="text-sm text-stone-700">
              Showing the {HISTORY_SHOWN} most recent changes; <code className="font-mono">npm run cli -- audit --pet {petId}</code> prints them all.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
