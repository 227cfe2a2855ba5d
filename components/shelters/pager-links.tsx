"use client";

import { isPlainClick } from "@/components/pets/follow-in-place";
import { buttonClass, disabledButtonClass } from "@/components/pets/styles";
import { usePageTransition } from "@/components/shelters/page-transition";

/**
 * Previous and Next as links to the neighbouring pages (the API's Link
 * cursors, made into this page's URLs): openable in a new tab, working
 * without JavaScript, and followed in place otherwise. At either end the
 * link is there but disabled, so the pair never jumps.
 */
export function PagerLinks({ prevHref, nextHref, label = "Pages" }: { prevHref: string | undefined; nextHref: string | undefined; label?: string }) {
  const { pending, go } = usePageTransition();
  const item = (text: "Previous" | "Next", href: string | undefined) => {
    const arrow = <span aria-hidden="true">{text === "Previous" ? "←" : "→"}</span>;
    const content = text === "Previous" ? [arrow, " ", text] : [text, " ", arrow];
    if (href === undefined) {
      return (
        <a role="link" aria-disabled="true" className={disabledButtonClass}>
          {content}
        </a>
      );
    }
    return (
      <a
        href={href}
        aria-disabled={pending || undefined}
        className={`${buttonClass} ${pending ? "cursor-wait opacity-70" : ""}`}
        onClick={(event) => {
          if (!isPlainClick(event)) return;
          event.preventDefault();
          if (!pending) go(href);
        }}
      >
        {content}
      </a>
    );
  };
  if (prevHref === undefined && nextHref === undefined) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-4">
      {item("Previous", prevHref)}
      {item("Next", nextHref)}
    </nav>
  );
}
