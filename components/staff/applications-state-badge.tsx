import type { ApplicationState, Home } from "@/lib/applications/schemas";

/** The states in the order an application moves through them (the filter's options). */
export const APPLICATION_STATE_LABELS: Record<ApplicationState, string> = {
  received: "Received",
  in_review: "In review",
  approved: "Approved",
  declined: "Declined",
  withdrawn: "Withdrawn",
  completed: "Completed",
  cancelled: "Cancelled",
};

export const HOME_LABELS: Record<Home, string> = { house: "House", flat: "Flat", other: "Other" };

// Each state has its own colour and mark, and always its word: colour is
// never the only signal. Text on background is AA.
const STYLES: Record<ApplicationState, { badge: string; mark: string }> = {
  received: { badge: "border-sky-300 bg-sky-50 text-sky-950", mark: "rounded-full bg-sky-600" },
  in_review: { badge: "border-violet-300 bg-violet-50 text-violet-950", mark: "rounded-full bg-violet-600" },
  approved: { badge: "border-amber-300 bg-amber-50 text-amber-900", mark: "rotate-45 bg-amber-500" },
  completed: { badge: "border-emerald-300 bg-emerald-50 text-emerald-900", mark: "bg-emerald-600" },
  declined: { badge: "border-stone-300 bg-stone-100 text-stone-800", mark: "bg-stone-500" },
  withdrawn: { badge: "border-stone-300 bg-stone-100 text-stone-800", mark: "bg-stone-500" },
  cancelled: { badge: "border-stone-300 bg-stone-100 text-stone-800", mark: "bg-stone-500" },
};

/** An application's state as a badge. */
export function ApplicationStateBadge({ state }: { state: ApplicationState }) {
  const style = STYLES[state];
  return (
    <span
      data-state={state}
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-semibold ${style.badge}`}
    >
      <span aria-hidden="true" className={`size-2 shrink-0 ${style.mark}`} />
      {APPLICATION_STATE_LABELS[state]}
    </span>
  );
}
