"use client";

import { useState } from "react";
import type { ApplicationState, ApplicationStatus } from "@/lib/applications/schemas";
import { buttonClass, textLinkClass } from "@/components/pets/styles";
import { callApi, describeError } from "@/lib/site/api-client";

// The applicant's private page: where their application stands, what it
// means, and Withdraw while nothing is decided.

const STATES: Record<ApplicationState, { label: string; text: string; tone: string }> = {
  received: { label: "Received", text: "The shelter has your application and will look at it soon.", tone: "border-sky-300 bg-sky-50 text-sky-950" },
  in_review: { label: "In review", text: "The shelter is looking at your application. They may contact you with questions.", tone: "border-sky-300 bg-sky-50 text-sky-950" },
  approved: { label: "Approved", text: "Good news: the shelter approved your application and will contact you to arrange the adoption.", tone: "border-emerald-300 bg-emerald-50 text-emerald-950" },
  declined: { label: "Declined", text: "The shelter could not accept this application.", tone: "border-stone-300 bg-stone-100 text-stone-900" },
  withdrawn: { label: "Withdrawn", text: "You withdrew this application.", tone: "border-stone-300 bg-stone-100 text-stone-900" },
  completed: { label: "Adopted", text: "The adoption is complete. Thank you for giving an animal a home!", tone: "border-emerald-300 bg-emerald-50 text-emerald-950" },
  cancelled: { label: "Cancelled", text: "This adoption was cancelled. The shelter will have told you why.", tone: "border-stone-300 bg-stone-100 text-stone-900" },
};

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

export function ApplicationStatusView({ token, initial }: { token: string; initial: ApplicationStatus }) {
  const [application, setApplication] = useState(initial);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const state = STATES[application.state];
  const undecided = application.state === "received" || application.state === "in_review";

  async function withdraw() {
    setBusy(true);
    setProblem(null);
    try {
      setApplication((await callApi((api) => api.POST("/application-links/{token}/withdraw", { params: { path: { token } } }))).data);
      setConfirming(false);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-3xl font-bold text-stone-900 wrap-anywhere">Your application for {application.petName}</h1>
      <p className="text-stone-700">
        Sent on {DAY.format(new Date(application.createdAt))}
        {application.name ? ` by ${application.name}` : ""}. Application #{application.id}.
      </p>
      <div role="status" className={`rounded-lg border px-4 py-3 ${state.tone}`}>
        <p className="text-lg font-semibold">Status: {state.label}</p>
        <p>{state.text}</p>
        {application.decisionMessage ? <p className="mt-2 whitespace-pre-line wrap-anywhere">Message from the shelter: {application.decisionMessage}</p> : null}
      </div>
      <p>
        <a href={`/pets/${application.petId}`} className={textLinkClass}>
          See {application.petName}’s page
        </a>
      </p>
      {problem ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          Your application was not withdrawn. {problem}
        </p>
      ) : null}
      {undecided &&
        (confirming ? (
          <div className="flex flex-wrap items-center gap-3 rounded-md border border-stone-300 p-4">
            <p className="w-full text-stone-800">Withdraw your application? The shelter will stop handling it; you can apply again later.</p>
            <button type="button" disabled={busy} onClick={() => void withdraw()} className={buttonClass}>
              {busy ? "Withdrawing…" : "Yes, withdraw it"}
            </button>
            <button type="button" onClick={() => setConfirming(false)} className={buttonClass}>
              Keep it
            </button>
          </div>
        ) : (
          <button type="button" onClick={() => setConfirming(true)} className={buttonClass}>
            Withdraw
          </button>
        ))}
    </article>
  );
}
