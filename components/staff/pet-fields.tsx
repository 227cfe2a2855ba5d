import { STATUS_LABELS } from "@/components/pets/browse-query";
import { PET_STATUSES } from "@/lib/pets/schemas/fields";

// What the add and edit forms share about an animal's fields.

/** The status choices of a form's <select>, labelled as everywhere else on the site. */
export function StatusOptions() {
  return PET_STATUSES.map((s) => (
    <option key={s} value={s}>
      {STATUS_LABELS[s]}
    </option>
  ));
}

/** The category <select>'s value as the schema wants it: a number, or undefined while none is chosen. */
export const categoryIdValue = (v: string | number | undefined) => (v === "" || v === undefined ? undefined : Number(v));

/** Blank means unknown: the API's null (it refuses blank text). */
export const textOrNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);

/** Today in the browser's own calendar, the latest date a date picker offers. */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** A server error's field as the forms name their controls: an item of a list is the list (`tags.3` is `tags`). */
export const formFieldOf = (field: string) => field.replace(/^(colors|tags)\.[0-9]+$/, "$1");
