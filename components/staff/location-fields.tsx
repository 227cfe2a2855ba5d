"use client";

import { useFormContext, type FieldError as RhfFieldError } from "react-hook-form";
import { FieldError } from "@/components/staff/field-error";
import { FormField } from "@/components/staff/form-field";
import { ORGANIZATION_LABELS } from "@/components/staff/organization-fields";
import { hintClass } from "@/components/staff/styles";

/** How an organisation is placed: at its US ZIP code's centre (the API looks it up), or at a position given here. */
export type LocationMode = "zip" | "exact";

const numberOrUndefined = (v: unknown) => (v === "" || v === null || v === undefined ? undefined : Number(v));

/**
 * Where searches near a place measure an organisation's distance from.
 * "From the ZIP code" sends no position (the API places it from the
 * address); "An exact position" asks for latitude and longitude, needed
 * outside the US. The two number fields exist only in that mode, so a
 * half-typed position left behind is neither validated nor sent.
 */
export function LocationFields({ idPrefix, mode, onModeChange }: { idPrefix: string; mode: LocationMode; onModeChange: (mode: LocationMode) => void }) {
  const {
    register,
    formState: { errors },
  } = useFormContext<{ location?: { lat: number; lng: number } }>();
  const id = (name: string) => `${idPrefix}-${name}`;
  const locationErrors = errors.location as (RhfFieldError & { lat?: RhfFieldError; lng?: RhfFieldError }) | undefined;
  const choice = (value: LocationMode, label: string, hint: string) => (
    <label className="flex cursor-pointer items-start gap-3 rounded-md border border-stone-300 p-3 has-checked:border-emerald-700 has-checked:bg-emerald-50 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-emerald-700">
      <input
        type="radio"
        name={id("location-mode")}
        value={value}
        checked={mode === value}
        onChange={() => onModeChange(value)}
        className="mt-1 size-4 accent-emerald-700 focus-visible:outline-none"
      />
      <span>
        <span className="block font-semibold text-stone-900">{label}</span>
        <span className="block text-sm text-stone-700">{hint}</span>
      </span>
    </label>
  );
  return (
    <fieldset className="space-y-3" aria-describedby={id("location-error")}>
      <legend className="text-base font-semibold text-stone-900">Position on the map</legend>
      <p className={hintClass}>Adopters searching near a ZIP code or their location see how far away you are, measured from here.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {choice("zip", "Placed from the ZIP code", "The centre of your US ZIP code: close enough for searches by distance.")}
        {choice("exact", "An exact position", "Latitude and longitude: outside the US, or to be precise.")}
      </div>
      {mode === "exact" ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id={id("lat")} label={ORGANIZATION_LABELS["location.lat"]} hint="From -90 to 90, e.g. 41.8789" error={locationErrors?.lat}>
            {(field) => (
              <input
                {...field}
                type="number"
                inputMode="decimal"
                step="any"
                {...register("location.lat", { setValueAs: numberOrUndefined, shouldUnregister: true })}
              />
            )}
          </FormField>
          <FormField id={id("lng")} label={ORGANIZATION_LABELS["location.lng"]} hint="From -180 to 180, e.g. -87.6359" error={locationErrors?.lng}>
            {(field) => (
              <input
                {...field}
                type="number"
                inputMode="decimal"
                step="any"
                {...register("location.lng", { setValueAs: numberOrUndefined, shouldUnregister: true })}
              />
            )}
          </FormField>
        </div>
      ) : null}
      <FieldError id={id("location-error")} label={ORGANIZATION_LABELS.location} message={locationErrors?.message} />
    </fieldset>
  );
}
