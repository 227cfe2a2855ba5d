"use client";

import { navLinkClass } from "@/components/site-nav";
import { useSaved } from "@/components/saved/saved-store";

/** The header's "Saved (N)": the count is this browser's, so it is drawn here (the server says "Saved"). */
export function SavedNavLink({ active, href, label }: { active: boolean; href: string; label: string }) {
  const count = useSaved().length;
  return (
    <a href={href} className={navLinkClass(active)} aria-current={active ? "page" : undefined}>
      {label}
      {count > 0 ? ` (${count})` : ""}
    </a>
  );
}
