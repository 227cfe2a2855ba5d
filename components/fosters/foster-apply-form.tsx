"use client";

import { useTranslations } from "next-intl";
import { wholeNumber } from "@/lib/i18n/numbers";
import { usePageLocale } from "@/lib/i18n/paths";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { FormAlert } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { ConsentFields } from "@/components/staff/consent-fields";
import { FieldError } from "@/components/staff/field-error";
import { hintClass, labelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { MESSAGE_MAX } from "@/lib/applications/schemas";
import { newFosterApplicationSchema, type NewFosterApplication, type NewFosterApplicationInput } from "@/lib/fosters/applications-schemas";
import { COUNTRY_CODES } from "@/lib/organizations/schemas";
import { SPECIES } from "@/lib/reports/schemas";
import { ApiClientError } from "@/lib/site/api-error";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";

// The application to foster on a shelter's page: the schema the API parses
// the body with validates it here too. What the server still refuses (a
// budget, an unknown ZIP code) is said on the field or the form, and nothing
// typed is lost.

const FIELDS = ["name", "email", "phone", "address", "species", "capacity", "message", "consent"] as const;
type Field = (typeof FIELDS)[number];
const topField = (f: string): Field | null => {
  const top = f.split(".")[0]!;
  return (FIELDS as readonly string[]).includes(top) ? (top as Field) : null;
};

export default function FosterApplyForm({
  organization,
  onCancel,
}: {
  organization: { id: number; name: string; country: string | null };
  onCancel: () => void;
}) {
  const t = useTranslations("FosterApply");
  const locale = usePageLocale();
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shelter = organization.name;
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: "region" });
    return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, locale));
  }, [locale]);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    control,
    formState: { errors, isSubmitting },
  } = useForm<NewFosterApplicationInput, unknown, NewFosterApplication>({
    resolver: zodResolver(newFosterApplicationSchema),
    defaultValues: {
      name: "",
      email: "",
      phone: "",
      address: { street: null, city: "", postcode: null, country: organization.country ?? "US" },
      species: [],
      capacity: 1,
      message: "",
      website: "",
    },
  });
  const message = useWatch({ control, name: "message" }) ?? "";
  // The schema's messages are English (it is also the API's); other languages say what each field needs in their own words.
  const fieldError = (field: Field) => {
    const error = field === "address" ? (errors.address?.city ?? errors.address?.country ?? errors.address?.postcode ?? errors.address) : errors[field];
    if (!error) return undefined;
    const text = (error as { message?: string }).message;
    return { message: locale !== "en" || !text ? t(`errors.${field}`) : text };
  };

  useEffect(() => setFocus("name"), [setFocus]);
  useEffect(() => {
    if (sent) heading.current?.focus();
  }, [sent]);

  const onSubmit = handleSubmit(async (application) => {
    setProblem(null);
    try {
      // The page's language: the shelter's emails to the applicant are written in it.
      await callApi((api) =>
        api.POST("/organizations/{organizationId}/foster-applications", {
          params: { path: { organizationId: organization.id } },
          body: { ...application, ...(locale === "en" ? {} : { locale }) },
        }),
      );
      setSent(application.email);
    } catch (error) {
      if (error instanceof ApiClientError && (error.code === "invalid_body" || error.code === "unknown_location")) {
        const onFields = error.details.filter((d) => topField(d.field));
        onFields.forEach((d, i) => {
          const field = topField(d.field)!;
          setError(
            field === "address" ? "address.city" : field,
            { type: "server", message: field === "address" ? `${d.field}: ${d.issue}` : d.issue },
            { shouldFocus: i === 0 },
          );
        });
        if (onFields.length > 0) return;
      }
      const known = error instanceof ApiClientError && (error.status === 429 || error.status === 404);
      if (locale === "en") setProblem(known ? error.message : t("notSent", { reason: describeError(error) }));
      else setProblem(t("notSent", { reason: error instanceof ApiClientError && error.status === 429 ? t("tooFast") : t("genericError") }));
    }
  });

  if (sent) {
    return (
      <section aria-labelledby="foster-sent-heading" className="space-y-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 sm:p-6">
        <h3 id="foster-sent-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold text-emerald-900 focus:outline-none">
          {t("sentHeading")}
        </h3>
        <p className="text-stone-800 wrap-anywhere">{t("sentText", { email: sent })}</p>
      </section>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t("heading", { shelter })} className="space-y-5">
      <p className={hintClass}>{t("intro", { shelter })}</p>
      {problem ? <FormAlert>{problem}</FormAlert> : null}

      <FormField id="foster-name" label={t("name")} error={fieldError("name")}>
        {(field) => <input {...field} type="text" autoComplete="name" {...register("name")} />}
      </FormField>
      <FormField id="foster-email" label={t("email")} hint={t("emailHint")} error={fieldError("email")}>
        {(field) => <input {...field} type="email" autoComplete="email" inputMode="email" {...register("email")} />}
      </FormField>
      <FormField id="foster-phone" label={t("phone")} error={fieldError("phone")}>
        {(field) => <input {...field} type="tel" autoComplete="tel" {...register("phone")} />}
      </FormField>
      <FormField id="foster-street" label={t("street")}>
        {(field) => <input {...field} type="text" autoComplete="street-address" {...register("address.street", { setValueAs: (v: string) => v || null })} />}
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="foster-city" label={t("city")} error={fieldError("address")}>
          {(field) => <input {...field} type="text" autoComplete="address-level2" {...register("address.city")} />}
        </FormField>
        <FormField id="foster-postcode" label={t("postcode")}>
          {(field) => <input {...field} type="text" autoComplete="postal-code" {...register("address.postcode", { setValueAs: (v: string) => v || null })} />}
        </FormField>
      </div>
      <FormField id="foster-country" label={t("country")}>
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

      <fieldset aria-describedby="foster-species-hint foster-species-error">
        <legend className={labelClass}>{t("species")}</legend>
        <p id="foster-species-hint" className={hintClass}>
          {t("speciesHint")}
        </p>
        <div className="mt-1 flex flex-wrap gap-4">
          {SPECIES.map((s) => (
            <label key={s} className="inline-flex items-center gap-2 text-stone-800">
              <input type="checkbox" value={s} className="size-4 accent-emerald-700" {...register("species")} />
              {t(`speciesName.${s}`)}
            </label>
          ))}
        </div>
        <FieldError id="foster-species-error" label={t("species")} message={fieldError("species")?.message} />
      </fieldset>
      <FormField id="foster-capacity" label={t("capacity")} error={fieldError("capacity")}>
        {(field) => (
          <input
            {...field}
            type="number"
            inputMode="numeric"
            min={1}
            max={50}
            className={`${field.className} max-w-32`}
            {...register("capacity", { valueAsNumber: true })}
          />
        )}
      </FormField>
      <FormField
        id="foster-message"
        label={t("message")}
        hint={t("messageHint", { count: wholeNumber([...message].length, locale), max: wholeNumber(MESSAGE_MAX, locale) })}
        error={fieldError("message")}
      >
        {(field) => <textarea {...field} rows={5} {...register("message")} />}
      </FormField>

      <ConsentFields id="foster" website={register("website")} consent={register("consent")} error={fieldError("consent")?.message}>
        {t("consent", { shelter })}
      </ConsentFields>

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting ? t("sending") : t("send")}
        </button>
        <button type="button" onClick={onCancel} className={secondaryButtonClass}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
