import type { HistoryActor, HistoryEntry } from "@/lib/audit/schemas";
import { PET_FIELDS, type PetField } from "@/lib/pets/schemas";

// History entries in words, for the CLI and the staff page alike. Plain
// functions (no zod, no React), safe on both sides.

export interface FieldChange {
  field: PetField;
  /** Absent for a creation. */
  before?: unknown;
  after: unknown;
}

/** What an entry changed: every field for a creation, the changed ones for an update. */
export function fieldChanges(entry: Pick<HistoryEntry, "action" | "before" | "after">): FieldChange[] {
  if (entry.action === "created" || entry.before === null) return PET_FIELDS.map((field) => ({ field, after: entry.after[field] }));
  const before = entry.before;
  return PET_FIELDS.filter((field) => field in before).map((field) => ({ field, before: before[field], after: entry.after[field] }));
}

export function describeActor(actor: HistoryActor): string {
  return actor.kind === "staff" ? `staff ${actor.email} (#${actor.id})` : `API key "${actor.name}" (#${actor.id})`;
}

const show = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : String(value));

/** `status: "available" → "sold"`, or `name: "Rex"` for a creation. */
export function describeChanges(entry: Pick<HistoryEntry, "action" | "before" | "after">): string {
  return fieldChanges(entry)
    .map((c) => (c.before === undefined ? `${c.field}: ${show(c.after)}` : `${c.field}: ${show(c.before)} → ${show(c.after)}`))
    .join(", ");
}
