"use client";

import type { ReactNode } from "react";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { usePageTransition } from "@/components/shelters/page-transition";

/** A link to another view of this page, shown in place (a plain link before and without JavaScript, and for new tabs). */
export function TransitionLink({ href, className, scroll, children }: { href: string; className?: string; scroll?: boolean; children: ReactNode }) {
  const { go } = usePageTransition();
  return (
    <a
      href={href}
      className={className}
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        go(href, scroll === undefined ? undefined : { scroll });
      }}
    >
      {children}
    </a>
  );
}
