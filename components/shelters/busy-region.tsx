"use client";

import type { ReactNode } from "react";
import { usePageTransition } from "@/components/shelters/page-transition";

/**
 * The results while the next ones load: dimmed and marked busy (screen
 * readers wait for them), with a spinner beside the heading's line.
 */
export function BusyRegion({ children, className = "" }: { children: ReactNode; className?: string }) {
  const { pending } = usePageTransition();
  return (
    <div aria-busy={pending} className={`transition-opacity ${pending ? "opacity-60" : ""} ${className}`}>
      {children}
    </div>
  );
}
