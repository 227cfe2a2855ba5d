"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { buttonClass, primaryButtonClass } from "@/components/pets/styles";
import type { FosterView } from "@/lib/fosters/links-schemas";
import { CAPACITY_MAX } from "@/lib/people/schemas";
import { usePageLocale } from "@/lib/i18n/paths";
import { SPECIES, type Species } from "@/lib/reports/schemas";
import { ApiClientError } from "@/lib/site/api-error";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";

// What the foster can take: how many animals at once, which species, and the
// days they are away. Saved together; the API's 400 names the field, and the
// page says what that field needs in its own words.

type Field = "capacity" | "species" | "blackouts";
const inputClass = "mt-1 block w-full min-w-0 rounded-md border border-stone-400 bg-white px-3 py-2 text-base text-stone-900 shadow-sm";

export function FosterPreferences({ token, view, onSaved }: { token: string; view: FosterView; onSaved: (view: FosterView) => void }) {
  const t = useTranslations("Foster");
  const locale = usePageLocale();
  const [capacity, setCapacity] = useState(String(view.capacity));
  const [species, setSpecies] = useState<Species[]>(view.species);
  const [blackouts, setBlackouts] = useState(view.blackouts);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [state, setState] = useState<"idle" | "saving" | "saved">("idle");
  const [problem, setProblem] = useState<string | null>(null);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setProblem(null);
    setErrors({});
    setState("saving");
    try {
      const body = { capacity: Number(capacity), species, blackouts };
      const saved = (await callApi((api) => api.PATCH("/foster-links/{token}", { params: { path: { token } }, body }))).data;
      onSaved(saved);
      setBlackouts(saved.blackouts);
      setState("saved");
    } catch (error) {
      setState("idle");
      if (error instanceof ApiClientError && error.code === "invalid_body") {
        const found: Partial<Record<Field, string>> = {};
        for (const d of error.details) {
          const field = d.field.split(".")[0] as Field;
          if (field === "capacity" || field === "species" || field === "blackouts") found[field] ??= t(`errors.${field}`);
        }
        if (Object.keys(found).length > 0) {
          setErrors(found);
          return;
        }
      }
      setProblem(locale === "en" ? describeError(error) : t("genericError"));
    }
  }

  const toggle = (s: Species) => setSpecies((list) => (list.includes(s) ? list.filter((x) => x !== s) : [...list, s]));
  const setDay = (i: number, end: "from" | "to", value: string) => setBlackouts((list) => list.map((b, j) => (j === i ? { ...b, [end]: value } : b)));

  return (
    <form
      onSubmit={(e) => void save(e)}
      noValidate
      aria-labelledby="prefs-heading"
      className="space-y-5 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="prefs-heading" className="text-xl font-semibold text-stone-900">
        {t("prefsHeading")}
      </h2>
      <div>
        <label htmlFor="foster-capacity" className="block text-sm font-semibold text-stone-800">
          {t("capacity")}
        </label>
        <input
          id="foster-capacity"
          type="number"
          inputMode="numeric"
          min={1}
          max={CAPACITY_MAX}
          value={capacity}
          onChange={(e) => {
            setCapacity(e.target.value);
            setState("idle");
          }}
          aria-invalid={errors.capacity ? true : undefined}
          aria-describedby="foster-capacity-error"
          className={`${inputClass} max-w-32`}
        />
        <p id="foster-capacity-error" className="mt-1 text-sm text-red-800">
          {errors.capacity ?? ""}
        </p>
      </div>

      <fieldset aria-describedby="foster-species-hint foster-species-error">
        <legend className="block text-sm font-semibold text-stone-800">{t("species")}</legend>
        <p id="foster-species-hint" className="mt-1 text-sm text-stone-600">
          {t("speciesHint")}
        </p>
        <div className="mt-2 flex flex-wrap gap-4">
          {SPECIES.map((s) => (
            <label key={s} className="inline-flex items-center gap-2 text-stone-800">
              <input
                type="checkbox"
                className="size-4 accent-emerald-700"
                checked={species.includes(s)}
                onChange={() => {
                  toggle(s);
                  setState("idle");
                }}
              />
              {t(`speciesName.${s}`)}
            </label>
          ))}
        </div>
        <p id="foster-species-error" className="mt-1 text-sm text-red-800">
          {errors.species ?? ""}
        </p>
      </fieldset>

      <fieldset aria-describedby="foster-blackouts-hint foster-blackouts-error" className="space-y-2">
        <legend className="block text-sm font-semibold text-stone-800">{t("blackouts")}</legend>
        <p id="foster-blackouts-hint" className="text-sm text-stone-600">
          {t("blackoutsHint")}
        </p>
        {blackouts.length === 0 ? <p className="text-stone-700">{t("noBlackouts")}</p> : null}
        <ul className="space-y-3">
          {blackouts.map((b, i) => (
            <li key={i} className="flex flex-wrap items-end gap-3 rounded-md border border-stone-200 p-3">
              <label className="min-w-36 flex-1 text-sm font-semibold text-stone-800">
                {t("from")}
                <input type="date" value={b.from} onChange={(e) => setDay(i, "from", e.target.value)} className={inputClass} />
              </label>
              <label className="min-w-36 flex-1 text-sm font-semibold text-stone-800">
                {t("to")}
                <input type="date" value={b.to} onChange={(e) => setDay(i, "to", e.target.value)} className={inputClass} />
              </label>
              <button type="button" onClick={() => setBlackouts((list) => list.filter((_, j) => j !== i))} className={buttonClass}>
                {t("remove")}
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={() => {
            const today = new Date().toISOString().slice(0, 10);
            setBlackouts((list) => [...list, { from: today, to: today }]);
            setState("idle");
          }}
          className={buttonClass}
        >
          {t("addBlackout")}
        </button>
        <p id="foster-blackouts-error" className="text-sm text-red-800">
          {errors.blackouts ?? ""}
        </p>
      </fieldset>

      {problem ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          {t("notSaved", { reason: problem })}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={state === "saving"} className={primaryButtonClass}>
          {state === "saving" ? t("saving") : t("save")}
        </button>
        {state === "saved" ? (
          <p role="status" className="text-emerald-800">
            {t("saved")}
          </p>
        ) : null}
      </div>
    </form>
  );
}
