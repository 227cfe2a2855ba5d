"use client";

import { useTranslations } from "next-intl";
import { localePath } from "@/lib/i18n/locales";
import { wholeNumber } from "@/lib/i18n/numbers";
import { usePageLocale } from "@/lib/i18n/paths";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { FormAlert } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { ConsentFields } from "@/components/staff/consent-fields";
import { FieldError } from "@/components/staff/field-error";
import { hintClass, labelClass, linkClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { ApiClientError } from "@/lib/site/api-error";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";
import { HOMES, MESSAGE_MAX, applicationInputSchema, type NewApplication, type NewApplicationInput } from "@/lib/applications/schemas";
import type { Pet } from "@/lib/pets/schemas/pet";

// The adopter's application: the same schema the API parses the body with
// validates it here, so the form refuses exactly what the server would.
// Whatever the server still refuses (the animal was taken meanwhile, an
// application already open, a budget) is said on the field or the form, and
// nothing typed is lost.

const FIELDS = ["name", "email", "phone", "home", "otherAnimals", "message", "consent"] as const;
type Field = (typeof FIELDS)[number];
const isField = (f: string): f is Field => (FIELDS as readonly string[]).includes(f);

export default function ApplyForm({ pet, onCancel }: { pet: Pet; onCancel: () => void }) {
  const t = useTranslations("Apply");
  const locale = usePageLocale();
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<{ statusUrl: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    control,
    formState: { errors, isSubmitting },
  } = useForm<NewApplicationInput, unknown, NewApplication>({
    resolver: zodResolver(applicationInputSchema),
    defaultValues: { name: "", email: "", phone: "", otherAnimals: "", message: "", website: "" },
  });
  const message = useWatch({ control, name: "message" }) ?? "";
  // The schema's messages are English (it is also the API's); other
  // languages say what each field needs in their own words.
  const fieldError = (field: Field) => {
    const error = errors[field];
    return error && locale !== "en" ? { ...error, message: t(`errors.${field}`) } : error;
  };

  useEffect(() => setFocus("name"), [setFocus]);
  useEffect(() => {
    if (sent) heading.current?.focus();
  }, [sent]);

  const onSubmit = handleSubmit(async (application) => {
    setProblem(null);
    try {
      // The page's language: the shelter's emails to the applicant are written in it.
      const res = await callApi((api) =>
        api.POST("/pets/{petId}/applications", { params: { path: { petId: pet.id } }, body: { ...application, ...(locale === "en" ? {} : { locale }) } }),
      );
      setSent({ statusUrl: res.data.statusUrl });
    } catch (error) {
      if (error instanceof ApiClientError && error.code === "invalid_body") {
        const onFields = error.details.filter((d) => isField(d.field));
        onFields.forEach((d, i) => setError(d.field as Field, { type: "server", message: d.issue }, { shouldFocus: i === 0 }));
        if (onFields.length > 0) return;
      }
      // The API's messages are English, for developers: English pages show them as
      // they are, other languages say the same in their words.
      const known = error instanceof ApiClientError && (error.status === 409 || error.status === 429 || error.status === 404);
      if (locale === "en") setProblem(known ? error.message : t("notSent", { reason: describeError(error) }));
      else
        setProblem(
          t("notSent", { reason: error instanceof ApiClientError && error.status === 429 ? t("tooFast") : known ? t("conflict") : t("genericError") }),
        );
    }
  });

  if (sent) {
    const path = new URL(sent.statusUrl, window.location.href).pathname;
    return (
      <section aria-labelledby="applied-heading" className="space-y-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 sm:p-6">
        <h2 id="applied-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold text-emerald-900 focus:outline-none">
          {t("sentHeading", { name: pet.name })}
        </h2>
        <p className="text-stone-800">{t("sentText")}</p>
        <p className="break-all">
          <a href={localePath(locale, path)} className={linkClass}>
            {sent.statusUrl}
          </a>
        </p>
        <button type="button" className={secondaryButtonClass} onClick={() => void navigator.clipboard?.writeText(sent.statusUrl)}>
          {t("copyLink")}
        </button>
      </section>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="apply-heading" className="space-y-5 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="apply-heading" className="text-xl font-semibold text-stone-900">
        {t("heading", { name: pet.name })}
      </h2>
      <p className={hintClass}>{t("intro")}</p>
      {problem ? <FormAlert>{problem}</FormAlert> : null}

      <FormField id="apply-name" label={t("name")} error={fieldError("name")}>
        {(field) => <input {...field} type="text" autoComplete="name" {...register("name")} />}
      </FormField>
      <FormField id="apply-email" label={t("email")} hint={t("emailHint")} error={fieldError("email")}>
        {(field) => <input {...field} type="email" autoComplete="email" inputMode="email" {...register("email")} />}
      </FormField>
      <FormField id="apply-phone" label={t("phone")} error={fieldError("phone")}>
        {(field) => <input {...field} type="tel" autoComplete="tel" {...register("phone")} />}
      </FormField>

      <fieldset aria-describedby="apply-home-error">
        <legend className={labelClass}>{t("home")}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {HOMES.map((home) => (
            <label key={home} className="inline-flex items-center gap-2 text-stone-800">
              <input type="radio" value={home} className="size-4 accent-emerald-700" {...register("home")} />
              {t(`homeKind.${home}`)}
            </label>
          ))}
        </div>
        <FieldError id="apply-home-error" label={t("home")} message={fieldError("home")?.message} />
      </fieldset>

      <FormField id="apply-other-animals" label={t("otherAnimals")} hint={t("otherAnimalsHint")} error={fieldError("otherAnimals")}>
        {(field) => <input {...field} type="text" {...register("otherAnimals")} />}
      </FormField>
      <FormField
        id="apply-message"
        label={t("message")}
        hint={t("messageHint", { name: pet.name, count: wholeNumber([...message].length, locale), max: wholeNumber(MESSAGE_MAX, locale) })}
        error={fieldError("message")}
      >
        {(field) => <textarea {...field} rows={6} {...register("message")} />}
      </FormField>

      <ConsentFields id="apply" website={register("website")} consent={register("consent")} error={fieldError("consent")?.message}>
        {t("consent")}
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
