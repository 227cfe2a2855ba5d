"use client";

import { usePageTransition } from "@/components/shelters/page-transition";

/** A small spinner, shown while the page's next view loads (the busy region says it to screen readers). */
export function BusySpinner() {
  const { pending } = usePageTransition();
  return pending ? (
    <span aria-hidden="true" className="size-4 shrink-0 rounded-full border-2 border-emerald-700 border-t-transparent motion-safe:animate-spin" />
  ) : null;
}
