"use client";

import { ApplicationStateBadge } from "@/components/staff/applications-state-badge";
import { applicantName } from "@/components/staff/applications-table";
import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { linkClass, panelClass, secondaryButtonClass } from "@/components/staff/styles";
import { usePetApplications } from "@/components/staff/use-applications";
import { describeError } from "@/lib/site/api-client";

/** The animal's adoption applications, newest first, each with its state; handled in the inbox. Staff only, below its profile. */
export function PetApplications({ petId, petName }: { petId: number; petName: string }) {
  const applications = usePetApplications(petId);
  const inbox = `/staff/applications?petId=${petId}`;
  return (
    <section aria-labelledby="pet-applications-heading" className={`${panelClass} space-y-4`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="pet-applications-heading" className="text-lg font-semibold">
          Applications
        </h2>
        <a href={inbox} className={linkClass}>
          Handle them in the inbox<span className="sr-only"> (applications for {petName})</span>
        </a>
      </div>
      {applications.isPending ? (
        <p role="status" className="text-stone-700">
          Loading the applications…
        </p>
      ) : applications.isError ? (
        <FormAlert>
          Could not load the applications. {describeError(applications.error)}{" "}
          <button type="button" onClick={() => void applications.refetch()} className={secondaryButtonClass}>
            Try again
          </button>
        </FormAlert>
      ) : applications.data.applications.length === 0 ? (
        <p className="text-stone-700">No one has applied to adopt {petName} yet.</p>
      ) : (
        <>
          <ul aria-label={`Applications for ${petName}, newest first`} className="divide-y divide-stone-200">
            {applications.data.applications.map((application) => (
              <li key={application.id} className="flex flex-wrap items-center justify-between gap-2 py-2 first:pt-0 last:pb-0">
                <span className="min-w-0 wrap-anywhere">
                  <a href={`${inbox}&application=${application.id}`} className={linkClass}>
                    {applicantName(application)}
                  </a>{" "}
                  <span className="text-sm text-stone-700">
                    · <DateTime iso={application.createdAt} />
                  </span>
                </span>
                <ApplicationStateBadge state={application.state} />
              </li>
            ))}
          </ul>
          {applications.data.next ? (
            <p className="text-sm text-stone-700">
              Showing the {applications.data.applications.length} most recent;{" "}
              <a href={inbox} className={linkClass}>
                the inbox lists them all
              </a>
              .
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
