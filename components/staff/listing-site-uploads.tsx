"use client";

import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { useListingUploads } from "@/components/staff/use-listing-sites";
import type { ListingUpload } from "@/lib/listings/uploads/schemas";
import { describeError } from "@/lib/site/api-client";
import { TableScroll } from "@/components/staff/table-scroll";

// A listing site's last uploads and what each did.

export function outcomeText(upload: ListingUpload): string {
  if (upload.outcome === "running") return "Running…";
  if (upload.outcome === "failed") return `Failed: ${upload.error ?? "unknown error"}`;
  return `Sent ${upload.animals} animal${upload.animals === 1 ? "" : "s"}, ${upload.photos} photo file${upload.photos === 1 ? "" : "s"}`;
}

export function UploadsList({ siteId }: { siteId: number }) {
  const uploads = useListingUploads(siteId, true);
  if (uploads.isPending) return <p className="text-sm text-stone-700">Loading uploads…</p>;
  if (uploads.error) return <FormAlert>Could not load the uploads. {describeError(uploads.error)}</FormAlert>;
  if (!uploads.data.length) return <p className="text-sm text-stone-700">No uploads yet.</p>;
  return (
    <TableScroll label="Last uploads, scrollable">
      <table className="mt-2 w-full text-left text-sm">
        <caption className="sr-only">The last 20 uploads, newest first</caption>
        <thead>
          <tr className="border-b border-stone-200">
            <th scope="col" className="py-1 pr-3">
              Started
            </th>
            <th scope="col" className="py-1 pr-3">
              Why
            </th>
            <th scope="col" className="py-1 pr-3">
              Outcome
            </th>
            <th scope="col" className="py-1">
              Warnings
            </th>
          </tr>
        </thead>
        <tbody>
          {uploads.data.map((u) => (
            <tr key={u.id} className="border-b border-stone-100 align-top">
              <td className="py-1 pr-3">
                <DateTime iso={u.startedAt} />
              </td>
              <td className="py-1 pr-3">{u.reason}</td>
              <td className="py-1 pr-3">{outcomeText(u)}</td>
              <td className="py-1">{u.warnings.length ? u.warnings.map((w) => `${w.rowId}: ${w.message}`).join("; ") : "None"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
