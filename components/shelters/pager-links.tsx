"use client";

import { useTranslations } from "next-intl";
import { useLocalePath } from "@/lib/i18n/paths";

import { isPlainClick } from "@/components/pets/follow-in-place";
import { buttonClass, disabledButtonClass } from "@/components/pets/styles";
import { usePageTransition } from "@/components/shelters/page-transition";

/**
 * Previous and Next as links to the neighbouring pages (the API's Link
 * cursors, made into this page's URLs): openable in a new tab, working
 * without JavaScript, and followed in place otherwise. At either end the
 * link is there but disabled, so the pair never jumps.
 */
export function PagerLinks({ prevHref, nextHref, label }: { prevHref: string | undefined; nextHref: string | undefined; label?: string }) {
  const { pending, go } = usePageTransition();
  const t = useTranslations("Browse");
  const to = useLocalePath();
  const item = (which: "previous" | "next", path: string | undefined) => {
    const text = t(which);
    const href = path === undefined ? undefined : to(path);
    const arrow = <span aria-hidden="true">{which === "previous" ? "←" : "→"}</span>;
    const content = which === "previous" ? [arrow, " ", text] : [text, " ", arrow];
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
    <nav aria-label={label ?? t("pages")} className="flex items-center justify-between gap-4">
      {item("previous", prevHref)}
      {item("next", nextHref)}
    </nav>
  );
}
