"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { useLocalePath } from "@/lib/i18n/paths";
import { primaryButtonClass, selectClass, textLinkClass } from "@/components/pets/styles";
import { usePageTransition } from "@/components/shelters/page-transition";
import { TransitionLink } from "@/components/shelters/transition-link";
import { UseMyLocation } from "@/components/shelters/use-my-location";

/**
 * Near (a US ZIP code, or the browser's location) and Within. A GET form
 * whose fields are the URL's: without JavaScript the browser submits it as
 * it is; with it, the search is shown in place (page-transition.tsx). The
 * values follow the URL, so Back shows the search it goes back to.
 * A place the API could not understand is said next to the box.
 */
export function ShelterSearch({
  near,
  within,
  choices,
  problem,
}: {
  near: string | undefined;
  within: number;
  choices: readonly number[];
  /** Why the API refused `near` (an unknown ZIP code...), in words for people. */
  problem: string | undefined;
}) {
  const { go } = usePageTransition();
  const t = useTranslations("ShelterSearch");
  // The directory in the page's language ("/es/shelters" on a Spanish page).
  const ACTION = useLocalePath()("/shelters");
  const [shown, setShown] = useState({ near, within });
  const [text, setText] = useState(near ?? "");
  const [distance, setDistance] = useState(`${within}mi`);
  if (shown.near !== near || shown.within !== within) {
    // Another URL (a search, Back, Forward): show its values.
    setShown({ near, within });
    setText(near ?? "");
    setDistance(`${within}mi`);
  }

  function search(place: string, miles: string) {
    const trimmed = place.trim();
    go(trimmed ? `${ACTION}?${new URLSearchParams({ near: trimmed, within: miles })}` : ACTION, { scroll: false });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    search(text, distance);
  }

  return (
    <form
      action={ACTION}
      method="get"
      onSubmit={onSubmit}
      role="search"
      aria-label={t("label")}
      className="space-y-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5"
    >
      {/* Read in the order Near, what is wrong with it, Within, Search. On a
          phone Near and Within share a row and Search takes the next; from sm
          up all three share one, the error under them. */}
      <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,8.5rem)] items-end gap-x-3 gap-y-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,11rem)_auto] sm:gap-y-1">
        <div className="col-start-1 row-start-1 min-w-0">
          <label htmlFor="near" className="block text-sm font-semibold text-stone-800">
            {t("near")}
          </label>
          <input
            id="near"
            name="near"
            type="text"
            inputMode="numeric"
            autoComplete="postal-code"
            placeholder={t("nearPlaceholder")}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby="near-error"
            className={`${selectClass} h-11 ${problem ? "border-red-700" : ""}`}
          />
        </div>
        <p
          id="near-error"
          role="alert"
          className="col-span-2 -mt-1 text-sm font-medium text-red-700 empty:hidden sm:col-span-3 sm:col-start-1 sm:row-start-2 sm:mt-0"
        >
          {problem}
        </p>
        <div className="col-start-2 row-start-1 min-w-0">
          <label htmlFor="within" className="block text-sm font-semibold text-stone-800">
            {t("within")}
          </label>
          <select
            id="within"
            name="within"
            value={distance}
            onChange={(event) => {
              setDistance(event.target.value);
              // Changing the distance of a search shows it at once.
              if (text.trim()) search(text, event.target.value);
            }}
            className={`${selectClass} h-11`}
          >
            {choices.map((miles) => (
              <option key={miles} value={`${miles}mi`}>
                {t("withinOption", { miles })}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={`${primaryButtonClass} col-span-2 h-11 px-6 text-base sm:col-span-1 sm:col-start-3 sm:row-start-1`}>
          {t("search")}
        </button>
      </div>
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2">
        <UseMyLocation action={ACTION} />
        {near ? (
          <TransitionLink href={ACTION} scroll={false} className={`${textLinkClass} text-sm`}>
            {t("showAll")}
          </TransitionLink>
        ) : null}
      </div>
      <p className="text-sm text-stone-600">{t("privacy")}</p>
    </form>
  );
}
