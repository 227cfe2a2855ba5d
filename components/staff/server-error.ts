import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { FormProblem } from "@/components/staff/form-alert";
import type { ErrorDetail } from "@/lib/core/errors";
import { describeError } from "@/lib/site/api-client";
import { ApiClientError } from "@/lib/site/api-error";

/** The refusals of a form's own fields, shown beside each control (the first one focused). */
export interface ServerFieldErrors<F extends FieldValues> {
  /** The codes whose details name fields (`invalid_body`, and the form's own: `unknown_category`…). */
  codes: readonly string[];
  /** The details that name a control of this form, as it shows them. */
  of: (details: ErrorDetail[]) => { field: Path<F>; message: string }[];
  setError: UseFormSetError<F>;
}

export interface ServerErrorHandling<F extends FieldValues> {
  /** What did not happen, said before the reason: "The animal was not added". Without it, the reason alone. */
  failed?: string;
  setProblem: (problem: FormProblem) => void;
  fields?: ServerFieldErrors<F>;
  /**
   * A session refused (401, or 403 `forbidden`; any 403 with `anyForbidden`) is said with a link to sign in:
   * by default "<failed>: your session has expired." and "<failed>: <the API's message>". `false` where a 401
   * means something else (the sign-in form's wrong password) or the page signs in by itself.
   */
  session?: false | { expired?: string; anyForbidden?: boolean };
}

/**
 * Every staff form's one way to show the server's refusal: on the fields it
 * names, else as the form's problem (with a way back in when the session is
 * gone), else the API's sentence after what did not happen. A form's own
 * cases (a 412's conflict, a password to type again) are answered before it.
 */
export function showServerError<F extends FieldValues>(error: unknown, { failed, setProblem, fields, session = {} }: ServerErrorHandling<F>): void {
  if (error instanceof ApiClientError) {
    if (fields && fields.codes.includes(error.code)) {
      const onFields = fields.of(error.details);
      onFields.forEach(({ field, message }, i) => fields.setError(field, { type: "server", message }, { shouldFocus: i === 0 }));
      if (onFields.length > 0) return;
    }
    if (session && failed && (error.status === 401 || (error.status === 403 && (session.anyForbidden || error.code === "forbidden")))) {
      setProblem({ message: error.status === 401 ? (session.expired ?? `${failed}: your session has expired.`) : `${failed}: ${error.message}`, signIn: true });
      return;
    }
  }
  setProblem({ message: failed ? `${failed}. ${describeError(error)}` : describeError(error) });
}
