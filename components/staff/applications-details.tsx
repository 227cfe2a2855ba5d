"use client";

import type { Ref } from "react";
import { STATUS_LABELS } from "@/components/pets/browse-query";
import { ApplicationActions } from "@/components/staff/applications-actions";
import { APPLICATION_STATE_LABELS, ApplicationStateBadge, HOME_LABELS } from "@/components/staff/applications-state-badge";
import { applicantName } from "@/components/staff/applications-table";
import { DateTime } from "@/components/staff/date-time";
import { linkClass, panelClass, secondaryButtonClass } from "@/components/staff/styles";
import type { Application } from "@/lib/applications/schemas";

function Field({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-semibold text-stone-700">{term}</dt>
      <dd className="wrap-anywhere">{children}</dd>
    </div>
  );
}

/**
 * One application in full: how to reach the applicant, their home and other
 * animals, their message (as typed, line breaks kept, never as markup), each
 * step with who took it and when, and the steps its state allows.
 */
export function ApplicationDetails({
  application,
  headingRef,
  onClose,
  onOnlyThisAnimal,
}: {
  application: Application;
  headingRef: Ref<HTMLHeadingElement>;
  onClose: () => void;
  /** Shows only this animal's applications in the list (absent when it already does). */
  onOnlyThisAnimal?: () => void;
}) {
  const name = applicantName(application);
  return (
    <section aria-labelledby="application-heading" className={`${panelClass} space-y-4`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <h2 id="application-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold wrap-anywhere focus:outline-none">
            {name} for {application.petName}
          </h2>
          <p className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
            <ApplicationStateBadge state={application.state} />
            <span>
              Application #{application.id}, received <DateTime iso={application.createdAt} />
              {application.source === "partner" ? " through a partner’s site" : " on this site"}
            </span>
          </p>
        </div>
        <button type="button" onClick={onClose} className={secondaryButtonClass}>
          Close<span className="sr-only"> the application</span>
        </button>
      </div>

      {application.anonymised ? <p className="text-sm text-stone-700">The applicant’s personal details have been removed after the retention period.</p> : null}

      <dl className="grid gap-3 sm:grid-cols-2">
        <Field term="Animal">
          <a href={`/pets/${application.petId}`} className={linkClass}>
            {application.petName}
          </a>{" "}
          <span className="text-sm text-stone-700">({STATUS_LABELS[application.petStatus].toLowerCase()})</span>
          {onOnlyThisAnimal ? (
            <>
              {" "}
              <button type="button" onClick={onOnlyThisAnimal} className={`${linkClass} text-sm`}>
                All applications for {application.petName}
              </button>
            </>
          ) : null}
        </Field>
        <Field term="Email">
          {application.email ? (
            <a href={`mailto:${application.email}`} className={`${linkClass} break-all`}>
              {application.email}
            </a>
          ) : (
            "—"
          )}
        </Field>
        <Field term="Phone">
          {application.phone ? (
            <a href={`tel:${application.phone.replace(/[^0-9+]/g, "")}`} className={linkClass}>
              {application.phone}
            </a>
          ) : (
            "Not given"
          )}
        </Field>
        <Field term="Home">{application.home ? HOME_LABELS[application.home] : "—"}</Field>
        <Field term="Other animals">
          <span className="whitespace-pre-line">{application.otherAnimals || "None"}</span>
        </Field>
        {application.decisionMessage ? (
          <Field term="Message sent with the decision">
            <span className="whitespace-pre-line">{application.decisionMessage}</span>
          </Field>
        ) : null}
      </dl>

      <div className="space-y-1">
        <h3 className="font-semibold">Message</h3>
        <p data-testid="application-message" className="whitespace-pre-line rounded-md bg-stone-50 p-3 wrap-anywhere">
          {application.message ?? "—"}
        </p>
      </div>

      <div className="space-y-1">
        <h3 id="application-steps-heading" className="font-semibold">
          Steps
        </h3>
        <ol aria-labelledby="application-steps-heading" className="space-y-1 text-sm">
          {application.steps.map((step, i) => (
            <li key={i}>
              <DateTime iso={step.at} /> ·{" "}
              <strong>
                {step.from ? (
                  <>
                    {APPLICATION_STATE_LABELS[step.from]}{" "}
                    <span role="img" aria-label="to">
                      →
                    </span>{" "}
                  </>
                ) : null}
                {APPLICATION_STATE_LABELS[step.to]}
              </strong>{" "}
              by <span className="break-all">{step.actor}</span>
            </li>
          ))}
        </ol>
      </div>

      <ApplicationActions key={application.id} application={application} />
    </section>
  );
}
