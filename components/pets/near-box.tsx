"use client";

import { useLocalePath, useTranslations } from "@/lib/i18n/client-translator";

import { useState } from "react";
import { DEFAULT_STATUS, nearIsPoint, normaliseNear, type BrowseQuery } from "@/components/pets/browse-query";
import { buttonClass, focusRing, selectClass } from "@/components/pets/styles";

/** A position is kept to two decimals (about a kilometre): near enough to search by, not a home's address. */
const rounded = (degrees: number) => Number(degrees.toFixed(2));

/**
 * Search near a place: a US ZIP code, or the browser's own location (asked
 * for only when the button is pressed, and rounded before it goes into the
 * URL). The place lives in the URL (?near=), so a view can be shared and
 * Back undoes it. Without JavaScript it is a plain GET form.
 */
export function NearBox({ query, onNavigate }: { query: BrowseQuery; onNavigate: (next: BrowseQuery) => void }) {
  const t = useTranslations("Browse");
  const to = useLocalePath();
  const zip = query.near && !nearIsPoint(query.near) ? query.near : "";
  const [text, setText] = useState(zip);
  const [urlZip, setUrlZip] = useState(zip);
  if (zip !== urlZip) {
    setUrlZip(zip);
    setText(zip);
  }
  const [problem, setProblem] = useState<string>();
  const [locating, setLocating] = useState(false);

  const go = (near: string | undefined) => {
    setProblem(undefined);
    if (near !== query.near) onNavigate({ ...query, near, within: near ? query.within : undefined, cursor: undefined });
  };

  const useLocation = () => {
    if (!("geolocation" in navigator)) {
      setProblem(t("noGeolocation"));
      return;
    }
    setLocating(true);
    setProblem(undefined);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        setText("");
        go(`${rounded(position.coords.latitude)},${rounded(position.coords.longitude)}`);
      },
      (error) => {
        setLocating(false);
        setProblem(error.code === error.PERMISSION_DENIED ? t("locationDenied") : t("locationFailed"));
      },
      { timeout: 10_000, maximumAge: 600_000 },
    );
  };

  const here = query.near !== undefined && nearIsPoint(query.near);
  return (
    <form
      method="get"
      action={to("/")}
      className="w-full min-w-0 sm:w-auto"
      onSubmit={(event) => {
        event.preventDefault();
        const near = normaliseNear(text);
        if (near === undefined || /^[0-9]{5}$/.test(near)) go(near);
        else setProblem(t("zipInvalid"));
      }}
    >
      {query.q && <input type="hidden" name="q" value={query.q} />}
      {query.status !== DEFAULT_STATUS && <input type="hidden" name="status" value={query.status} />}
      <label htmlFor="search-near" className="block text-sm font-semibold text-stone-800">
        {t("near")}
      </label>
      <div className="mt-1 flex items-stretch gap-2">
        <input
          id="search-near"
          name="near"
          type="text"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={10}
          placeholder={here ? t("nearHere") : t("nearPlaceholder")}
          value={text}
          aria-describedby={problem ? "search-near-problem" : undefined}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => setText(event.target.value)}
          onBlur={() => {
            // Leaving the box applies a finished ZIP code, as Enter does.
            const near = normaliseNear(text);
            if (near && /^[0-9]{5}$/.test(near) && near !== query.near) go(near);
          }}
          className={`${selectClass} mt-0 w-28 sm:w-32`}
        />
        <button type="button" onClick={useLocation} disabled={locating} className={`${buttonClass} shrink-0 px-3`} aria-label={t("useMyLocation")}>
          {/* A location pin: the button's name is its aria-label. */}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-current">
            <path d="M10 2a6 6 0 0 0-6 6c0 4.4 6 10 6 10s6-5.6 6-10a6 6 0 0 0-6-6Zm0 8.2A2.2 2.2 0 1 1 10 5.8a2.2 2.2 0 0 1 0 4.4Z" />
          </svg>
          <span className="hidden lg:inline">{locating ? t("findingYou") : t("useMyLocation")}</span>
        </button>
        {query.near && (
          <button
            type="button"
            onClick={() => {
              setText("");
              go(undefined);
            }}
            className={`rounded-md px-2 text-sm font-semibold text-emerald-800 underline underline-offset-2 ${focusRing}`}
          >
            {t.rich("clearPlace", { sr: (chunks) => <span className="sr-only">{chunks}</span> })}
          </button>
        )}
      </div>
      {problem && (
        <p id="search-near-problem" role="alert" className="mt-1 text-sm text-red-800">
          {problem}
        </p>
      )}
    </form>
  );
}
