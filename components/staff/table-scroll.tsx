import type { ReactNode } from "react";

/**
 * A wide table on a narrow screen: it scrolls sideways inside this box
 * instead of widening the page. The box takes the keyboard focus (a
 * scrollable region must be reachable without a mouse) and is named for
 * screen readers.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
    >
      {children}
    </div>
  );
}
