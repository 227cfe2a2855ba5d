"use client";

import { ApplicationStateBadge, HOME_LABELS } from "@/components/staff/applications-state-badge";
import { DateTime } from "@/components/staff/date-time";
import { linkClass, secondaryButtonClass } from "@/components/staff/styles";
import type { Application } from "@/lib/applications/schemas";

/** The applicant's name, or what stands in for it once the personal data is gone. */
export const applicantName = (application: Application) => application.name ?? `Applicant #${application.id}`;

/** The button that opens one application (its id, so the list can give focus back to it). */
export const openButtonId = (id: number) => `application-${id}-open`;

/**
 * The inbox's rows, newest first: the animal, who applied and how to reach
 * them, when, and where it stands, with a button to open it. The selected
 * row is marked (aria-current) as well as shaded.
 */
export function ApplicationsTable({
  applications,
  selectedId,
  onOpen,
}: {
  applications: Application[];
  selectedId: number | undefined;
  onOpen: (application: Application) => void;
}) {
  // A region of its own that scrolls sideways on a phone (the page never
  // does); `relative` so the screen-reader-only texts, absolutely placed,
  // stay inside it instead of widening the page.
  return (
    <div
      role="region"
      aria-labelledby="applications-caption"
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
    >
      <table className="min-w-full text-left text-sm">
        <caption id="applications-caption" className="sr-only">
          Applications, newest first
        </caption>
        <thead className="bg-stone-100 text-stone-800">
          <tr>
            {["Applicant", "Animal", "Email", "Phone", "Home", "Received", "State", "Details"].map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-3 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200">
          {applications.map((application) => {
            const selected = application.id === selectedId;
            const name = applicantName(application);
            return (
              <tr key={application.id} aria-current={selected ? "true" : undefined} className={selected ? "bg-emerald-50" : undefined}>
                <th scope="row" className="max-w-48 break-words px-3 py-2 font-semibold text-stone-900">
                  {name}
                </th>
                <td className="max-w-40 break-words px-3 py-2">
                  <a href={`/pets/${application.petId}`} className={linkClass}>
                    {application.petName}
                  </a>
                </td>
                <td className="whitespace-nowrap px-3 py-2">{application.email ?? "—"}</td>
                <td className="whitespace-nowrap px-3 py-2">{application.phone ?? "—"}</td>
                <td className="px-3 py-2">{application.home ? HOME_LABELS[application.home] : "—"}</td>
                <td className="whitespace-nowrap px-3 py-2">
                  <DateTime iso={application.createdAt} />
                </td>
                <td className="px-3 py-2">
                  <ApplicationStateBadge state={application.state} />
                </td>
                <td className="px-3 py-2">
                  <button id={openButtonId(application.id)} type="button" onClick={() => onOpen(application)} className={secondaryButtonClass}>
                    Open
                    <span className="sr-only">
                      {" "}
                      the application of {name} for {application.petName}
                    </span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
