"use client";

import { useEffect, useRef, useState } from "react";
import { secondaryButtonClass } from "@/components/staff/styles";

type CopyState = "idle" | "copied" | "failed";

/**
 * The key just issued, the only time anyone sees it: only its hash and last
 * four characters are stored. Stays until dismissed or the page is left.
 */
export function IssuedKey({ keyText, name, onDismiss }: { keyText: string; name: string; onDismiss: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const code = useRef<HTMLElement>(null);
  const [copy, setCopy] = useState<CopyState>("idle");

  useEffect(() => heading.current?.focus(), [keyText]);

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(keyText);
      setCopy("copied");
    } catch {
      // No clipboard access (permission refused, old browser): select the
      // key so that one keystroke copies it.
      if (code.current) window.getSelection()?.selectAllChildren(code.current);
      setCopy("failed");
    }
  }

  return (
    <section aria-labelledby="issued-key-heading" className="space-y-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4 shadow-sm sm:p-6">
      <h2 id="issued-key-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-amber-950 focus:outline-none">
        New key for <span className="break-words">{name}</span>
      </h2>
      <p className="font-semibold text-amber-950">Copy it now: it will not be shown again.</p>
      <p className="text-sm text-stone-800">
        Only a fingerprint of the key is kept, so nobody can look it up later. If it is lost, revoke it and issue another.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <code
          ref={code}
          data-testid="issued-key"
          className="min-w-0 break-all rounded border border-amber-300 bg-white px-3 py-2 font-mono text-sm text-stone-900"
        >
          {keyText}
        </code>
        <button type="button" onClick={copyKey} className={secondaryButtonClass}>
          Copy key
        </button>
        <button type="button" onClick={onDismiss} className={secondaryButtonClass}>
          Hide key
        </button>
        <span role="status" className={`text-sm font-semibold ${copy === "failed" ? "text-red-800" : "text-emerald-800"}`}>
          {copy === "copied" ? "Copied" : copy === "failed" ? "Could not copy: the key is selected, press Ctrl+C (⌘C) to copy it." : ""}
        </span>
      </div>
    </section>
  );
}
