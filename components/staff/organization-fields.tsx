"use client";

import { useFormContext, type FieldErrors } from "react-hook-form";
import { FormField } from "@/components/staff/form-field";
import { hintClass } from "@/components/staff/styles";
import { ORG_NAME_MAX, type NewOrganizationInput } from "@/lib/organizations/schemas";
import type { CountryChoice } from "@/lib/site/countries";

// The name, contact and address of an organisation: the same controls on the
// platform's "Add an organisation" form and on a shelter's profile page, so
// both ask the same questions in the same words. Named as the API names the
// fields (address.city...), so a server error's `field` lands on its control.

export const ORGANIZATION_LABELS = {
  name: "Name",
  email: "Email",
  phone: "Phone",
  website: "Website",
  "address.street": "Street",
  "address.city": "City",
  "address.region": "State or region",
  "address.postcode": "ZIP or postal code",
  "address.country": "Country",
  location: "Position",
  "location.lat": "Latitude",
  "location.lng": "Longitude",
  timeZone: "Time zone",
} as const;
export type OrganizationField = keyof typeof ORGANIZATION_LABELS;
export const isOrganizationField = (field: string): field is OrganizationField => field in ORGANIZATION_LABELS;

type Values = Pick<NewOrganizationInput, "name" | "email" | "phone" | "website" | "address">;

/** Blank means none: the API's null (it refuses blank text). */
export const textOrNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);

export function OrganizationFields({ idPrefix, countries }: { idPrefix: string; countries: CountryChoice[] }) {
  const {
    register,
    formState: { errors },
  } = useFormContext<Values>();
  const id = (name: string) => `${idPrefix}-${name}`;
  const addressErrors = (errors.address ?? {}) as FieldErrors<NonNullable<Values["address"]>>;
  return (
    <>
      <FormField id={id("name")} label={ORGANIZATION_LABELS.name} hint={<>As adopters will see it, up to {ORG_NAME_MAX} characters.</>} error={errors.name}>
        {(field) => <input {...field} type="text" autoComplete="organization" {...register("name")} />}
      </FormField>

      <fieldset className="space-y-5">
        <legend className="text-base font-semibold text-stone-900">Contact</legend>
        <p className={hintClass}>Shown on your shelter&rsquo;s page and beside each of your animals. Leave blank what adopters should not use.</p>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id={id("email")} label={ORGANIZATION_LABELS.email} error={errors.email}>
            {(field) => <input {...field} type="email" autoComplete="email" {...register("email", { setValueAs: textOrNull })} />}
          </FormField>
          <FormField id={id("phone")} label={ORGANIZATION_LABELS.phone} error={errors.phone}>
            {(field) => <input {...field} type="tel" autoComplete="tel" {...register("phone", { setValueAs: textOrNull })} />}
          </FormField>
        </div>
        <FormField id={id("website")} label={ORGANIZATION_LABELS.website} hint="The whole address, starting with https://" error={errors.website}>
          {(field) => <input {...field} type="url" autoComplete="url" placeholder="https://" {...register("website", { setValueAs: textOrNull })} />}
        </FormField>
      </fieldset>

      <fieldset className="space-y-5">
        <legend className="text-base font-semibold text-stone-900">Address</legend>
        <p className={hintClass}>
          Where adopters come to meet your animals. City and country are required; in the US, the ZIP code can also place you on the map.
        </p>
        <FormField id={id("street")} label={ORGANIZATION_LABELS["address.street"]} error={addressErrors.street}>
          {(field) => <input {...field} type="text" autoComplete="street-address" {...register("address.street", { setValueAs: textOrNull })} />}
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id={id("city")} label={ORGANIZATION_LABELS["address.city"]} error={addressErrors.city}>
            {(field) => <input {...field} type="text" autoComplete="address-level2" {...register("address.city")} />}
          </FormField>
          <FormField id={id("region")} label={ORGANIZATION_LABELS["address.region"]} error={addressErrors.region}>
            {(field) => <input {...field} type="text" autoComplete="address-level1" {...register("address.region", { setValueAs: textOrNull })} />}
          </FormField>
          <FormField id={id("postcode")} label={ORGANIZATION_LABELS["address.postcode"]} error={addressErrors.postcode}>
            {(field) => <input {...field} type="text" autoComplete="postal-code" {...register("address.postcode", { setValueAs: textOrNull })} />}
          </FormField>
          <FormField id={id("country")} label={ORGANIZATION_LABELS["address.country"]} error={addressErrors.country}>
            {(field) => (
              <select {...field} autoComplete="country" {...register("address.country")}>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </div>
      </fieldset>
    </>
  );
}
