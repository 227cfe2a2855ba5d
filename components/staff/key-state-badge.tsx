import { DateTime } from "@/components/staff/date-time";
import type { KeyState } from "@/components/staff/key-state";

const base = "inline-block rounded-full px-2 py-0.5 text-xs font-semibold";

/** Active, revoked (since when) or banned (until when). */
export function KeyStateBadge({ state }: { state: KeyState }) {
  if (state.kind === "revoked") {
    return (
      <span className={`${base} bg-stone-200 text-stone-800`}>
        Revoked <DateTime iso={state.since.toISOString()} />
      </span>
    );
  }
  if (state.kind === "banned") {
    return (
      <span className={`${base} bg-red-100 text-red-900`}>
        Banned until <DateTime iso={state.until.toISOString()} />
      </span>
    );
  }
  return <span className={`${base} bg-emerald-100 text-emerald-900`}>Active</span>;
}
