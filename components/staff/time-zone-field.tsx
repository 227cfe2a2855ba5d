"use client";

import { useMemo } from "react";
import { useFormContext } from "react-hook-form";
import { FormField } from "@/components/staff/form-field";
import { ORGANIZATION_LABELS } from "@/components/staff/organization-fields";
import type { OrganizationPatchInput } from "@/lib/organizations/schemas";

/**
 * The shelter's time zone: where its calendar is. A date recorded without a
 * time (an intake "on 3 March") is midnight of that day there, and the
 * monthly report's months are its months. Typed or picked from the zones the
 * browser knows; the API checks it against the database's.
 */
export function TimeZoneField({ idPrefix }: { idPrefix: string }) {
  const {
    register,
    formState: { errors },
  } = useFormContext<OrganizationPatchInput>();
  const zones = useMemo(() => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []), []);
  const id = `${idPrefix}-timeZone`;
  return (
    <FormField
      id={id}
      label={ORGANIZATION_LABELS.timeZone}
      hint="Where your shelter's calendar is, e.g. America/Chicago: a date recorded without a time is midnight of that day there, and monthly reports count its months. Days already recorded do not move."
      error={errors.timeZone}
    >
      {(field) => (
        <>
          <input {...field} type="text" list={`${id}-list`} autoComplete="off" spellCheck={false} {...register("timeZone")} />
          <datalist id={`${id}-list`}>
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </>
      )}
    </FormField>
  );
}
