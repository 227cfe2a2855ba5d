"use client";

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
import { ApiClientError, describeError } from "@/lib/site/api-client";
import { newAlertSchema } from "@/lib/alerts/schemas";
import type { Category } from "@/lib/pets/schemas";

// "Email me new matches": the browse page's filters as an alert (POST
// /v1/alerts, double opt-in: nothing is sent until the emailed link is
// opened). Loaded only when its button is pressed: react-hook-form and zod
// stay out of the browse page's first JavaScript.

const LABELS = { email: "Email", frequency: "How often", consent: "Consent" } as const;
type Field = keyof typeof LABELS;
const isField = (f: string): f is Field => f in LABELS;

// The form's own fields, validated by the API's own schema (the filters come from the page).
const alertFormSchema = newAlertSchema.pick({ email: true, frequency: true, consent: true, website: true });
type AlertFormInput = z.input<typeof alertFormSchema>;
type AlertForm = z.output<typeof alertFormSchema>;

export default function AlertForm({ id, query, categories, onClose }: { id: string; query: BrowseQuery; categories: Category[] | undefined; onClose: () => void }) {
  const { filters, widened, unwatched } = alertFiltersOf(query);
  const words = alertFilterWords(filters, categories?.find((c) => c.id === filters.categoryId)?.name);
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

  const locale = usePageLocale();
  useEffect(() => setFocus("email"), [setFocus]);
  useEffect(() => {
    if (sent) done.current?.focus();
  }, [sent]);

  const onSubmit = handleSubmit(async (form) => {
    setProblem(null);
    try {
      // The page's language: the alert's emails are written in it.
      const res = await createAlert({ ...form, timeZone: browserTimeZone(), filters, locale });
      setSent({ email: form.email, message: res.data.message });
    } catch (error) {
      if (error instanceof ApiClientError && error.code === "invalid_body") {
        const onFields = error.details.filter((d) => isField(d.field));
        onFields.forEach((d, i) => setError(d.field as Field, { type: "server", message: d.issue }, { shouldFocus: i === 0 }));
        if (onFields.length === error.details.length && onFields.length > 0) return;
      }
      setProblem(
        error instanceof ApiClientError && error.status === 429
          ? `Too many alerts for now. ${describeError(error)}`
          : error instanceof ApiClientError && error.status >= 400 && error.status < 500
            ? error.message
            : `Your alert was not created. ${describeError(error)}`,
      );
    }
  });

  if (sent) {
    return (
      <section id={id} aria-labelledby={`${id}-done`} className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 sm:p-5">
        <h2 id={`${id}-done`} ref={done} tabIndex={-1} className="text-lg font-semibold text-emerald-900 focus:outline-none">
          Check your email
        </h2>
        <p className="text-stone-800">
          We sent a link to <strong className="wrap-anywhere">{sent.email}</strong>. Open it to start the alert: nothing is sent until you do.
        </p>
        <p className="text-sm text-stone-700">{sent.message}</p>
        <button type="button" className={secondaryButtonClass} onClick={onClose}>
          Close
        </button>
      </section>
    );
  }

  return (
    <form id={id} onSubmit={onSubmit} noValidate aria-labelledby={`${id}-heading`} className="space-y-4 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5">
      <div>
        <h2 id={`${id}-heading`} className="text-lg font-semibold text-stone-900">
          Email me new matches
        </h2>
        <p className={hintClass}>
          New available animals matching: <strong className="font-semibold text-stone-800">{words}</strong>
        </p>
        {widened.length > 0 ? (
          <p className={hintClass}>
            An alert watches one {widened.join(" and one ")} at most: this one includes every {widened.map((w) => (w === "age" ? "age" : "size")).join(" and every ")}.
          </p>
        ) : null}
        {unwatched.length > 0 ? (
          <p className={hintClass}>
            An alert does not watch {unwatched.map((u) => (u === "houseTrained" ? "house-training" : "special needs")).join(" or ")}: this one tells you of new animals whatever{" "}
            {unwatched.length > 1 ? "those are" : "that is"}.
          </p>
        ) : null}
      </div>
      {problem ? <FormAlert>{problem}</FormAlert> : null}

      <FormField id={`${id}-email`} label={LABELS.email} hint="No account needed: we send a link to confirm." error={errors.email}>
        {(field) => <input {...field} type="email" autoComplete="email" inputMode="email" {...register("email")} />}
      </FormField>

      <fieldset aria-describedby={`${id}-frequency-error`}>
        <legend className={labelClass}>{LABELS.frequency}</legend>
        <div className="mt-1 flex flex-wrap gap-x-6 gap-y-2">
          <label className="inline-flex items-center gap-2 text-stone-800">
            <input type="radio" value="hourly" className="size-4 accent-emerald-700" {...register("frequency")} />
            As they arrive
          </label>
          <label className="inline-flex items-center gap-2 text-stone-800">
            <input type="radio" value="daily" className="size-4 accent-emerald-700" {...register("frequency")} />
            Daily
          </label>
        </div>
        <p className={hintClass}>As they arrive: at most one email an hour. Daily: one email at 8 am, your time.</p>
        <FieldError id={`${id}-frequency-error`} label={LABELS.frequency} message={errors.frequency?.message} />
      </fieldset>

      <ConsentFields id={id} website={register("website")} consent={register("consent")} error={errors.consent?.message}>
        I agree to get these emails at this address. Every email has a link to stop them at once.
      </ConsentFields>

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting ? "Creating…" : "Create alert"}
        </button>
        <button type="button" onClick={onClose} className={secondaryButtonClass}>
          Cancel
        </button>
      </div>
    </form>
  );
}
