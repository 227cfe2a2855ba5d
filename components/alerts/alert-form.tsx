"use client";

import { useTranslations } from "next-intl";
import { categoryLabel } from "@/lib/i18n/words";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import { usePageLocale } from "@/lib/i18n/paths";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { alertFiltersOf, alertFilterWords, browserTimeZone } from "@/components/alerts/alert-filters";
import { createAlert } from "@/components/alerts/alerts-api";
import type { BrowseQuery } from "@/components/pets/browse-query";
import { FieldError } from "@/components/staff/field-error";
import { FormAlert } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { ConsentFields } from "@/components/staff/consent-fields";
import { hintClass, labelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";
import { newAlertSchema } from "@/lib/alerts/schemas";
import type { Category } from "@/lib/pets/schemas/pet";

// "Email me new matches": the browse page's filters as an alert (POST
// /v1/alerts, double opt-in: nothing is sent until the emailed link is
// opened). Loaded only when its button is pressed: react-hook-form and zod
// stay out of the browse page's first JavaScript.

const FIELDS = ["email", "frequency", "consent"] as const;
type Field = (typeof FIELDS)[number];
const isField = (f: string): f is Field => (FIELDS as readonly string[]).includes(f);

// The form's own fields, validated by the API's own schema (the filters come from the page).
const alertFormSchema = newAlertSchema.pick({ email: true, frequency: true, consent: true, website: true });
type AlertFormInput = z.input<typeof alertFormSchema>;
type AlertForm = z.output<typeof alertFormSchema>;

export default function AlertForm({
  id,
  query,
  categories,
  onClose,
}: {
  id: string;
  query: BrowseQuery;
  categories: Category[] | undefined;
  onClose: () => void;
}) {
  const { filters, widened, unwatched } = alertFiltersOf(query);
  const t = useTranslations("AlertForm");
  const wordsT = useTranslations("Words");
  const locale = usePageLocale();
  const categoryName = categories?.find((c) => c.id === filters.categoryId)?.name;
  const words =
    locale === "en"
      ? alertFilterWords(filters, categoryName)
      : alertFilterWords(filters, categoryName === undefined ? undefined : categoryLabel(wordsT, categoryName), { locale, t, words: wordsT });
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  const done = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<AlertFormInput, unknown, AlertForm>({
    resolver: zodResolver(alertFormSchema),
    defaultValues: { email: "", frequency: "hourly", website: "" },
  });

  // The schema's messages are English (it is also the API's); other
  // languages say what each field needs in their own words.
  const fieldError = (field: Field) => {
    const error = errors[field];
    return error && locale !== "en" ? { ...error, message: t(`errors.${field}`) } : error;
  };
  useEffect(() => setFocus("email"), [setFocus]);
  useEffect(() => {
    if (sent) done.current?.focus();
  }, [sent]);

  const onSubmit = handleSubmit(async (form) => {
    setProblem(null);
    try {
      // The page's language, when not English (the default): the alert's emails are written in it.
      const res = await createAlert({ ...form, timeZone: browserTimeZone(), filters, ...(locale === "en" ? {} : { locale }) });
      setSent({ email: form.email, message: res.data.message });
    } catch (error) {
      if (error instanceof ApiClientError && error.code === "invalid_body") {
        const onFields = error.details.filter((d) => isField(d.field));
        onFields.forEach((d, i) => setError(d.field as Field, { type: "server", message: d.issue }, { shouldFocus: i === 0 }));
        if (onFields.length === error.details.length && onFields.length > 0) return;
      }
      const client = error instanceof ApiClientError && error.status >= 400 && error.status < 500;
      // The API's messages are English, for developers: other languages say the same in their words.
      const reason = locale === "en" ? describeError(error) : t("refused");
      setProblem(
        error instanceof ApiClientError && error.status === 429
          ? t("tooMany", { reason })
          : client
            ? locale === "en"
              ? error.message
              : t("refused")
            : t("notCreated", { reason }),
      );
    }
  });

  if (sent) {
    return (
      <section id={id} aria-labelledby={`${id}-done`} className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 sm:p-5">
        <h2 id={`${id}-done`} ref={done} tabIndex={-1} className="text-lg font-semibold text-emerald-900 focus:outline-none">
          {t("checkEmail")}
        </h2>
        <p className="text-stone-800">{t.rich("sentTo", { email: sent.email, strong: (chunks) => <strong className="wrap-anywhere">{chunks}</strong> })}</p>
        <p className="text-sm text-stone-700">{locale === "en" ? sent.message : t("sentNote")}</p>
        <button type="button" className={secondaryButtonClass} onClick={onClose}>
          {t("close")}
        </button>
      </section>
    );
  }

  return (
    <form
      id={id}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-heading`}
      className="space-y-4 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div>
        <h2 id={`${id}-heading`} className="text-lg font-semibold text-stone-900">
          {t("heading")}
        </h2>
        <p className={hintClass}>
          {t("matching")} <strong className="font-semibold text-stone-800">{words}</strong>
        </p>
        {widened.length > 0 ? <p className={hintClass}>{t("widened", { kinds: widened.length > 1 ? "both" : widened[0]! })}</p> : null}
        {unwatched.length > 0 ? <p className={hintClass}>{t("unwatched", { kinds: unwatched.length > 1 ? "both" : unwatched[0]! })}</p> : null}
      </div>
      {problem ? <FormAlert>{problem}</FormAlert> : null}

      <FormField id={`${id}-email`} label={t("email")} hint={t("emailHint")} error={fieldError("email")}>
        {(field) => <input {...field} type="email" autoComplete="email" inputMode="email" {...register("email")} />}
      </FormField>

      <fieldset aria-describedby={`${id}-frequency-error`}>
        <legend className={labelClass}>{t("frequency")}</legend>
        <div className="mt-1 flex flex-wrap gap-x-6 gap-y-2">
          <label className="inline-flex items-center gap-2 text-stone-800">
            <input type="radio" value="hourly" className="size-4 accent-emerald-700" {...register("frequency")} />
            {t("hourly")}
          </label>
          <label className="inline-flex items-center gap-2 text-stone-800">
            <input type="radio" value="daily" className="size-4 accent-emerald-700" {...register("frequency")} />
            {t("daily")}
          </label>
        </div>
        <p className={hintClass}>{t("frequencyHint")}</p>
        <FieldError id={`${id}-frequency-error`} label={t("frequency")} message={fieldError("frequency")?.message} />
      </fieldset>

      <ConsentFields id={id} website={register("website")} consent={register("consent")} error={fieldError("consent")?.message}>
        {t("consent")}
      </ConsentFields>

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting ? t("creating") : t("create")}
        </button>
        <button type="button" onClick={onClose} className={secondaryButtonClass}>
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}
