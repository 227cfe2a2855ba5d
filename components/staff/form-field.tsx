import type { ReactNode } from "react";
import { FieldError } from "@/components/staff/field-error";
import { hintClass, inputClass, labelClass } from "@/components/staff/styles";

/** What ties a control to its label, hint and error line: spread it on the control. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string;
  className: string;
}

interface FormFieldProps {
  id: string;
  /** The visible label, and the name the error message is a sentence about. */
  label: string;
  hint?: ReactNode;
  /** The field's entry in react-hook-form's `errors`: its presence marks the control invalid. */
  error?: { message?: string };
  /** The control, given the props that wire it to the rest of the field. */
  children: (control: ControlProps) => ReactNode;
  /** Anything more under the error line, such as a way to retry loading the options. */
  footer?: ReactNode;
}

/**
 * One labelled control of a staff form: label, optional hint, the control and
 * its error line. The ids follow one pattern (`id`, `id-hint`, `id-error`)
 * so that the control always points at the texts that describe it.
 */
export function FormField({ id, label, hint, error, children, footer }: FormFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={hintClass}>
          {hint}
        </p>
      ) : null}
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": hint ? `${hintId} ${errorId}` : errorId,
        className: inputClass(!!error),
      })}
      <FieldError id={errorId} label={label} message={error?.message} />
      {footer}
    </div>
  );
}
