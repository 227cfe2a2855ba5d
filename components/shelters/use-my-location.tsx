"use client";

import { useTranslations } from "next-intl";
import { useState, type MouseEvent } from "react";
import { buttonClass } from "@/components/pets/styles";
import { usePageTransition } from "@/components/shelters/page-transition";
import { nearOfPosition } from "@/components/shelters/position";

type Refusal = "refused" | "unavailable" | "timeout" | "unsupported";
type State = { kind: "idle" } | { kind: "finding" } | { kind: "failed"; reason: Refusal };

/** GeolocationPositionError's codes: PERMISSION_DENIED, POSITION_UNAVAILABLE, TIMEOUT. */
const REFUSALS: Record<number, Refusal> = { 1: "refused", 2: "unavailable", 3: "timeout" };

/**
 * Searches near where the browser is: asks for its position (the browser
 * asks the person first), rounds it (position.ts) and shows that search,
 * with the distance chosen in the form.
 */
export function UseMyLocation({ action }: { action: string }) {
  const { go } = usePageTransition();
  const t = useTranslations("ShelterSearch");
  const [state, setState] = useState<State>({ kind: "idle" });

  function locate(event: MouseEvent<HTMLButtonElement>) {
    const within = event.currentTarget.form?.elements.namedItem("within");
    const withinValue = within instanceof HTMLSelectElement ? within.value : undefined;
    if (!("geolocation" in navigator)) {
      setState({ kind: "failed", reason: "unsupported" });
      return;
    }
    setState({ kind: "finding" });
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setState({ kind: "idle" });
        const params = new URLSearchParams({ near: nearOfPosition(position.coords), ...(withinValue ? { within: withinValue } : {}) });
        go(`${action}?${params}`, { scroll: false });
      },
      (error) => setState({ kind: "failed", reason: REFUSALS[error.code] ?? "unavailable" }),
      // A city-level fix is all a distance search needs: quicker, and kinder to the battery.
      { enableHighAccuracy: false, timeout: 20_000, maximumAge: 10 * 60_000 },
    );
  }

  return (
    <div className="space-y-1">
      <button type="button" onClick={locate} disabled={state.kind === "finding"} className={`${buttonClass} disabled:cursor-wait disabled:opacity-70`}>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-emerald-800">
          <path d="M10 6.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7Zm7.9 2.6A8 8 0 0 0 10.9 2V0H9.1v2A8 8 0 0 0 2 9.1H0v1.8h2A8 8 0 0 0 9.1 18v2h1.8v-2a8 8 0 0 0 7-7.1h2V9.1h-2.1ZM10 16.2a6.2 6.2 0 1 1 0-12.4 6.2 6.2 0 0 1 0 12.4Z" />
        </svg>
        {state.kind === "finding" ? t("finding") : t("useMyLocation")}
      </button>
      <p role="alert" className="text-sm font-medium text-red-700 empty:hidden">
        {state.kind === "failed" ? t(state.reason) : null}
      </p>
    </div>
  );
}
