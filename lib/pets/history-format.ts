import type { HistoryActor } from "@/lib/audit/schemas";
import type { HistoryEntry } from "@/lib/pets/schemas/history";
import { formatAmount } from "@/lib/pets/adoption-fee";
import { LISTING_LABELS } from "@/lib/pets/profile-labels";
import { PET_FIELDS, type PetField } from "@/lib/pets/schemas/pet";

// History entries in words, for the CLI and the staff page alike. Plain
// functions (no zod, no React), safe on both sides.

export interface FieldChange {
  field: PetField;
  /** Absent for a creation. */
  before?: unknown;
  after: unknown;
}

/** Nothing said: a profile field left unknown (or as every animal starts, listed on other sites) at creation is not worth a line. */
const isBlank = (field: PetField, value: unknown) =>
  value === null ||
  value === "unknown" ||
  (field === "listOnOtherSites" && value === true) ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === "object" && value !== null && Object.values(value).every((v) => v === null));

/** What an entry changed: every field given for a creation, the changed ones for an update. */
export function fieldChanges(entry: Pick<HistoryEntry, "action" | "before" | "after">): FieldChange[] {
  if (entry.action === "created" || entry.before === null) {
    return PET_FIELDS.filter((field) => !isBlank(field, entry.after[field])).map((field) => ({ field, after: entry.after[field] }));
  }
  const before = entry.before;
  return PET_FIELDS.filter((field) => field in before).map((field) => ({ field, before: before[field], after: entry.after[field] }));
}

export function describeActor(actor: HistoryActor): string {
  return actor.kind === "staff" ? `staff ${actor.email} (#${actor.id})` : `API key "${actor.name}" (#${actor.id})`;
}

export const FIELD_LABELS: Record<PetField, string> = {
  name: "Name",
  categoryId: "Category",
  status: "Status",
  sex: "Sex",
  size: "Size",
  birthDate: "Born",
  breed: "Breed",
  description: "Description",
  goodWith: "Good with",
  ...LISTING_LABELS,
  photos: "Photos",
};

const answer = (v: unknown) => (v === true ? "yes" : v === false ? "no" : "unknown");

/** A field's value in a few words: `"Rex"`, `"sold"`, `unknown`, `yes`, `children yes, dogs unknown, cats no`, `$150 (waived)`, `"Black", "White"`, `2 photos (#12, #9)`. */
export function describeValue(field: PetField, value: unknown): string {
  if (value === null || value === undefined) return "unknown";
  if (typeof value === "boolean") return answer(value);
  if (field === "adoptionFee" && typeof value === "object") {
    const fee = value as { amountCents: number; currency: string; waived: boolean };
    return `${formatAmount(fee.amountCents, fee.currency)}${fee.waived ? " (waived)" : ""}`;
  }
  if ((field === "colors" || field === "tags") && Array.isArray(value)) return value.length === 0 ? "none" : value.map((v) => JSON.stringify(v)).join(", ");
  if (field === "goodWith" && typeof value === "object") {
    const g = value as Record<string, unknown>;
    return `children ${answer(g.children)}, dogs ${answer(g.dogs)}, cats ${answer(g.cats)}`;
  }
  if (field === "photos" && Array.isArray(value)) {
    const ids = value.map((p: { id?: unknown }) => `#${String(p.id)}`);
    return value.length === 0 ? "none" : `${value.length} photo${value.length === 1 ? "" : "s"} (${ids.join(", ")})`;
  }
  if ((field === "description" || field === "specialNeedsNotes") && typeof value === "string") {
    const chars = [...value];
    return JSON.stringify(chars.length > 60 ? `${chars.slice(0, 60).join("")}…` : value);
  }
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** `status: "available" → "sold"`, or `name: "Rex"` for a creation. */
export function describeChanges(entry: Pick<HistoryEntry, "action" | "before" | "after">): string {
  return fieldChanges(entry)
    .map((c) =>
      c.before === undefined
        ? `${c.field}: ${describeValue(c.field, c.after)}`
        : `${c.field}: ${describeValue(c.field, c.before)} → ${describeValue(c.field, c.after)}`,
    )
    .join(", ");
}
