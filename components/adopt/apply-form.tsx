"use client";

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
import { ApiClientError, callApi, describeError } from "@/lib/site/api-client";
import { HOMES, MESSAGE_MAX, applicationInputSchema, type Home, type NewApplication, type NewApplicationInput } from "@/lib/applications/schemas";
import type { Pet } from "@/lib/pets/schemas";

// The adopter's application: the same schema the API parses the body with
// validates it here, so the form refuses exactly what the server would.
// Whatever the server still refuses (the animal was taken meanwhile, an
// application already open, a budget) is said on the field or the form, and
// nothing typed is lost.

const LABELS = {
  name: "Your name",
  email: "Email",
  phone: "Phone (optional)",
  home: "Your home",
  otherAnimals: "Other animals at home",
  message: "Why this animal?",
  consent: "Consent",
} as const;
type Field = keyof typeof LABELS;
const isField = (f: string): f is Field => f in LABELS;

const HOME_LABELS: Record<Home, string> = { house: "House", flat: "Flat", other: "Other" };

export default function ApplyForm({ pet, onCancel }: { pet: Pet; onCancel: () => void }) {
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

  useEffect(() => setFocus("name"), [setFocus]);
  useEffect(() => {
    if (sent) heading.current?.focus();
  }, [sent]);

  const onSubmit = handleSubmit(async (application) => {
    setProblem(null);
    try {
      const res = await callApi((api) => api.POST("/pets/{petId}/applications", { params: { path: { petId: pet.id } }, body: application }));
      setSent({ statusUrl: res.data.statusUrl });
    } catch (error) {
      if (error instanceof ApiClientError && error.code === "invalid_body") {
        const onFields = error.details.filter((d) => isField(d.field));
        onFields.forEach((d, i) => setError(d.field as Field, { type: "server", message: d.issue }, { shouldFocus: i === 0 }));
        if (onFields.length > 0) return;
      }
      setProblem(
        error instanceof ApiClientError && (error.status === 409 || error.status === 429 || error.status === 404)
          ? error.message
          : `Your application was not sent. ${describeError(error)}`,
      );
    }
  });

  if (sent) {
    const path = new URL(sent.statusUrl, window.location.href).pathname;
    return (
      <section aria-labelledby="applied-heading" className="space-y-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 sm:p-6">
        <h2 id="applied-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold text-emerald-900 focus:outline-none">
          Thank you: your application for {pet.name} was received
        </h2>
        <p className="text-stone-800">
          The shelter will look at it and get in touch. Your application has a private page where you can follow it, and withdraw it if you change
          your mind. Keep this link: anyone who has it can see your application.
        </p>
        <p className="break-all">
          <a href={path} className={linkClass}>
            {sent.statusUrl}
          </a>
        </p>
        <button type="button" className={secondaryButtonClass} onClick={() => void navigator.clipboard?.writeText(sent.statusUrl)}>
          Copy the link
        </button>
      </section>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="apply-heading" className="space-y-5 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="apply-heading" className="text-xl font-semibold text-stone-900">
        Apply to adopt {pet.name}
      </h2>
      <p className={hintClass}>No account needed. We use these details only to handle your application.</p>
      {problem ? <FormAlert>{problem}</FormAlert> : null}

      <FormField id="apply-name" label={LABELS.name} error={errors.name}>
        {(field) => <input {...field} type="text" autoComplete="name" {...register("name")} />}
      </FormField>
      <FormField id="apply-email" label={LABELS.email} hint="The shelter answers here." error={errors.email}>
        {(field) => <input {...field} type="email" autoComplete="email" inputMode="email" {...register("email")} />}
      </FormField>
      <FormField id="apply-phone" label={LABELS.phone} error={errors.phone}>
        {(field) => <input {...field} type="tel" autoComplete="tel" {...register("phone")} />}
      </FormField>

      <fieldset aria-describedby="apply-home-error">
        <legend className={labelClass}>{LABELS.home}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {HOMES.map((home) => (
            <label key={home} className="inline-flex items-center gap-2 text-stone-800">
              <input type="radio" value={home} className="size-4 accent-emerald-700" {...register("home")} />
              {HOME_LABELS[home]}
            </label>
          ))}
        </div>
        <FieldError id="apply-home-error" label={LABELS.home} message={errors.home?.message} />
      </fieldset>

      <FormField id="apply-other-animals" label={LABELS.otherAnimals} hint="Which, and how old; leave empty if none." error={errors.otherAnimals}>
        {(field) => <input {...field} type="text" {...register("otherAnimals")} />}
      </FormField>
      <FormField
        id="apply-message"
        label={LABELS.message}
        hint={`Your home, your days, why ${pet.name}. ${[...message].length.toLocaleString("en")} of ${MESSAGE_MAX.toLocaleString("en")} characters.`}
        error={errors.message}
      >
        {(field) => <textarea {...field} rows={6} {...register("message")} />}
      </FormField>

      <ConsentFields id="apply" website={register("website")} consent={register("consent")} error={errors.consent?.message}>
        I agree that the shelter stores these details to handle my application.
      </ConsentFields>

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting ? "Sending…" : "Send application"}
        </button>
        <button type="button" onClick={onCancel} className={secondaryButtonClass}>
          Cancel
        </button>
      </div>
    </form>
  );
}
