"use client";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { FormAlert } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { panelClass, primaryButtonClass } from "@/components/staff/styles";
import { showServerError } from "@/components/staff/server-error";
import { ApiClientError } from "@/lib/site/api-error";
import { callApi } from "@/lib/site/api-client-core";
import { signInSchema, type SignIn } from "@/lib/staff/schemas";

const FIELDS = { email: "Email", password: "Password" } as const;
type Field = keyof typeof FIELDS;

/** Email and password, checked with the API's own schema before anything is sent. */
export function SignInForm({ next }: { next: string }) {
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof signInSchema>, unknown, SignIn>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await callApi((api) => api.POST("/session", { body: values }));
      // A full page load, not a client-side push: the header is rendered on
      // the server, and everything cached was fetched as an adopter.
      window.location.replace(next);
    } catch (error) {
      // A 401 here is a wrong email or password, not a session gone.
      showServerError(error, {
        setProblem: ({ message }) => setFormError(message),
        fields: {
          codes: ["invalid_body"],
          of: (details) => details.filter((d) => d.field in FIELDS).map((d) => ({ field: d.field as Field, message: d.issue })),
          setError,
        },
        session: false,
      });
      if (error instanceof ApiClientError && error.status === 401) {
        resetField("password");
        setFocus("password");
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="sign-in-heading" className={`${panelClass} max-w-md space-y-5`}>
      <h2 id="sign-in-heading" className="text-lg font-semibold">
        Sign in with your staff account
      </h2>
      {formError ? <FormAlert>{formError}</FormAlert> : null}
      <FormField id="sign-in-email" label={FIELDS.email} error={errors.email}>
        {(field) => <input {...field} type="email" inputMode="email" autoComplete="username" spellCheck={false} {...register("email")} />}
      </FormField>
      <FormField id="sign-in-password" label={FIELDS.password} error={errors.password}>
        {(field) => <input {...field} type="password" autoComplete="current-password" {...register("password")} />}
      </FormField>
      <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
        {isSubmitting ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
