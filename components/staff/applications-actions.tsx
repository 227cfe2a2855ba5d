"use client";

import { useId, useRef, useState } from "react";
import { APPLICATION_STATE_LABELS } from "@/components/staff/applications-state-badge";
import { applicantName } from "@/components/staff/applications-table";
import { FormProblemAlert, type FormProblem } from "@/components/staff/form-alert";
import { dangerButtonClass, hintClass, inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useApplicationTransition, type StaffStep } from "@/components/staff/use-applications";
import { DECISION_MESSAGE_MAX, type Application } from "@/lib/applications/schemas";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";

const SIGN_IN_HREF = "/staff/sign-in?next=/staff/applications";

const FAILED: Record<StaffStep, string> = {
  in_review: "Could not start the review.",
  approved: "Could not approve this application.",
  declined: "Could not decline this application.",
  completed: "Could not complete the adoption.",
  cancelled: "Could not cancel the adoption.",
};

function outcome(application: Application, to: StaffStep, declineOthers: boolean): string {
  const who = applicantName(application);
  const pet = application.petName;
  switch (to) {
    case "in_review":
      return `Started the review of ${who}’s application.`;
    case "approved":
      return `Approved ${who}’s application. ${pet} is now pending: no more applications are taken.`;
    case "declined":
      return `Declined ${who}’s application.`;
    case "completed":
      return `Completed the adoption: ${pet} is now sold.${declineOthers ? " The other open applications for this animal were declined." : ""}`;
    case "cancelled":
      return `Cancelled the adoption: ${pet} is available again.`;
  }
}

/**
 * The steps an application's state allows, each one POST to its
 * transitions: Start review and Approve at once; Decline (with an optional
 * message) and Cancel after a second click; Complete with the choice to
 * decline the animal's other open applications. The outcome is announced
 * (role="status"); a refusal shows the API's reason.
 */
export function ApplicationActions({ application }: { application: Application }) {
  const transition = useApplicationTransition();
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [confirming, setConfirming] = useState<"declined" | "cancelled" | null>(null);
  const [declineMessage, setDeclineMessage] = useState("");
  const [declineOthers, setDeclineOthers] = useState(true);
  const [othersMessage, setOthersMessage] = useState(`${application.petName} has found a home. Thank you for applying, and for thinking of adopting.`);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = useId();
  const busy = transition.isPending;
  const { state } = application;

  async function run(to: StaffStep, extra: { message?: string; declineOthers?: boolean } = {}) {
    setDone(null);
    setProblem(null);
    try {
      await transition.mutateAsync({ application, to, ...extra });
      setConfirming(null);
      setDone(outcome(application, to, extra.declineOthers ?? false));
    } catch (error) {
      const signIn = error instanceof ApiClientError && (error.status === 401 || error.status === 403);
      // 412: the API's message is about ETags; staff need what happened and what to do.
      const reason =
        error instanceof ApiClientError && error.status === 412
          ? `${application.petName} was changed by someone else since this page showed it, so nothing was done. The application and the animal are shown as they are now: check them, then try again.`
          : describeError(error);
      setProblem({ message: `${FAILED[to]} ${reason}`, signIn });
    }
    // The button pressed may be gone (the state moved on): keep the
    // keyboard here, at the top of the steps.
    headingRef.current?.focus();
  }

  const undecided = state === "received" || state === "in_review";
  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-3 border-t border-stone-200 pt-4">
      <h3 id={`${ids}-heading`} ref={headingRef} tabIndex={-1} className="font-semibold focus:outline-none">
        Next steps
      </h3>
      <div role="status" className="text-sm font-medium text-emerald-900 empty:hidden">
        {done}
      </div>
      <FormProblemAlert problem={problem} signInHref={SIGN_IN_HREF} />

      {undecided ? (
        <>
          <div className="flex flex-wrap gap-2">
            {state === "received" ? (
              <button type="button" disabled={busy} onClick={() => void run("in_review")} className={secondaryButtonClass}>
                Start review
              </button>
            ) : null}
            <button type="button" disabled={busy} onClick={() => void run("approved")} aria-describedby={`${ids}-approve-hint`} className={primaryButtonClass}>
              Approve
            </button>
          </div>
          <p id={`${ids}-approve-hint`} className={hintClass}>
            Approving makes {application.petName} pending: the animal takes no more applications until the adoption is completed or cancelled.
          </p>

          <form
            aria-labelledby={`${ids}-decline-heading`}
            className="space-y-2 rounded-md border border-stone-200 bg-stone-50 p-3"
            onSubmit={(event) => {
              event.preventDefault();
              if (confirming !== "declined") return setConfirming("declined");
              void run("declined", { message: declineMessage });
            }}
          >
            <h4 id={`${ids}-decline-heading`} className="text-sm font-semibold">
              Decline
            </h4>
            <div>
              <label htmlFor={`${ids}-decline-message`} className={labelClass}>
                Message to the applicant (optional)
              </label>
              <textarea
                id={`${ids}-decline-message`}
                rows={3}
                maxLength={DECISION_MESSAGE_MAX}
                value={declineMessage}
                onChange={(event) => setDeclineMessage(event.target.value)}
                aria-describedby={`${ids}-decline-hint`}
                className={inputClass(false)}
              />
              <p id={`${ids}-decline-hint`} className={hintClass}>
                Shown on the applicant’s private application page.
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <button type="submit" disabled={busy} className={confirming === "declined" ? dangerButtonClass : secondaryButtonClass}>
                {confirming === "declined" ? "Confirm decline" : "Decline"}
              </button>
              {confirming === "declined" ? (
                <button type="button" onClick={() => setConfirming(null)} className={secondaryButtonClass}>
                  Keep it open
                </button>
              ) : null}
            </div>
          </form>
        </>
      ) : state === "approved" ? (
        <>
          <form
            aria-labelledby={`${ids}-complete-heading`}
            className="space-y-2 rounded-md border border-stone-200 bg-stone-50 p-3"
            onSubmit={(event) => {
              event.preventDefault();
              void run("completed", declineOthers ? { declineOthers: true, message: othersMessage } : {});
            }}
          >
            <h4 id={`${ids}-complete-heading`} className="text-sm font-semibold">
              Complete the adoption
            </h4>
            <p className="text-sm text-stone-700">{application.petName} is then marked sold.</p>
            <div className="flex items-start gap-2">
              <input
                id={`${ids}-decline-others`}
                type="checkbox"
                checked={declineOthers}
                onChange={(event) => setDeclineOthers(event.target.checked)}
                className="mt-1 size-4 shrink-0 accent-emerald-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
              />
              <label htmlFor={`${ids}-decline-others`} className="text-sm font-semibold text-stone-800">
                Decline the other open applications for this animal
              </label>
            </div>
            {declineOthers ? (
              <div>
                <label htmlFor={`${ids}-others-message`} className={labelClass}>
                  Message to the other applicants
                </label>
                <textarea
                  id={`${ids}-others-message`}
                  rows={3}
                  maxLength={DECISION_MESSAGE_MAX}
                  value={othersMessage}
                  onChange={(event) => setOthersMessage(event.target.value)}
                  aria-describedby={`${ids}-others-hint`}
                  className={inputClass(false)}
                />
                <p id={`${ids}-others-hint`} className={hintClass}>
                  Shown on each of their private application pages.
                </p>
              </div>
            ) : null}
            <button type="submit" disabled={busy} className={primaryButtonClass}>
              Complete adoption
            </button>
          </form>

          <div className="space-y-2 rounded-md border border-stone-200 bg-stone-50 p-3">
            <p id={`${ids}-cancel-hint`} className="text-sm text-stone-700">
              If the adoption falls through, cancel it: {application.petName} becomes available again.
            </p>
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                disabled={busy}
                aria-describedby={`${ids}-cancel-hint`}
                onClick={() => (confirming === "cancelled" ? void run("cancelled") : setConfirming("cancelled"))}
                className={confirming === "cancelled" ? dangerButtonClass : secondaryButtonClass}
              >
                {confirming === "cancelled" ? "Confirm cancelling the adoption" : "Cancel adoption"}
              </button>
              {confirming === "cancelled" ? (
                <button type="button" onClick={() => setConfirming(null)} className={secondaryButtonClass}>
                  Keep the adoption
                </button>
              ) : null}
            </div>
          </div>
        </>
      ) : (
        <p className="text-sm text-stone-700">
          None: this application is {APPLICATION_STATE_LABELS[state].toLowerCase()}, and nothing more can be done with it.
        </p>
      )}
    </section>
  );
}
