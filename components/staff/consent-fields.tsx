import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { FieldError } from "@/components/staff/field-error";

/**
 * The end of every public form that mails a typed address (applying,
 * email alerts): the honeypot field the API refuses when filled
 * (honeypotSchema), then the consent box, worded by each form, with its
 * error. `id` prefixes the fields' ids.
 */
export function ConsentFields({
  id,
  website,
  consent,
  error,
  children,
}: {
  id: string;
  website: UseFormRegisterReturn<"website">;
  consent: UseFormRegisterReturn<"consent">;
  error: string | undefined;
  /** What the person agrees to. */
  children: ReactNode;
}) {
  return (
    <>
      {/* For bots, which fill every field: people never see or reach it. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor={`${id}-website`}>Website</label>
        <input id={`${id}-website`} type="text" tabIndex={-1} autoComplete="off" {...website} />
      </div>

      <div>
        <label className="flex items-start gap-3 text-stone-800">
          <input
            type="checkbox"
            className="mt-1 size-4 shrink-0 accent-emerald-700"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-consent-error`}
            {...consent}
          />
          <span>{children}</span>
        </label>
        <FieldError id={`${id}-consent-error`} label="Consent" message={error} />
      </div>
    </>
  );
}
