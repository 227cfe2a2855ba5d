import { STATUS_LABELS } from "@/components/pets/browse-query";
import { PET_STATUSES } from "@/lib/pets/schemas";

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
