"use client";

import type { ReactNode } from "react";
import { useFormContext } from "react-hook-form";
import { FieldError } from "@/components/staff/field-error";
import { inputClass } from "@/components/staff/styles";

// A yes / no / not known question of the staff forms. Never a checkbox: an
// unticked box would say "no" where the shelter simply does not know.

const TEXT = { unknown: "Not known", yes: "Yes", no: "No" } as const;

/** The <select>'s "true", "false" or "" as the API's true, false, null. */
export const answerValue = (v: unknown) => (v === true || v === "true" ? true : v === false || v === "false" ? false : null);

/** The first message under a form error, wherever it sits (a list's item, an object's part). */
export function errorMessage(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const { message } = error as { message?: unknown };
  if (typeof message === "string" && message) return message;
  for (const [key, value] of Object.entries(error))
    if (key !== "ref" && key !== "type" && key !== "message") {
      const inner = errorMessage(value);
      if (inner) return inner;
    }
  return undefined;
}

export function AnswerSelect({
  id,
  name,
  label,
  errorLabel,
}: {
  id: string;
  name: string;
  /** As shown (may hide words for sighted users). */ label: ReactNode;
  /** The field's name in its error sentence. */ errorLabel: string;
}) {
  const { register, getFieldState, formState } = useFormContext();
  const message = errorMessage(getFieldState(name, formState).error);
  return (
    <div>
      <label htmlFor={id} className="block text-sm text-stone-800">
        {label}
      </label>
      <select
        id={id}
        aria-invalid={message ? true : undefined}
        aria-describedby={`${id}-error`}
        className={inputClass(!!message)}
        {...register(name, { setValueAs: answerValue })}
      >
        <option value="">{TEXT.unknown}</option>
        <option value="true">{TEXT.yes}</option>
        <option value="false">{TEXT.no}</option>
      </select>
      <FieldError id={`${id}-error`} label={errorLabel} message={message} />
    </div>
  );
}
