"use client";

import { useState } from "react";
import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useUpdateListingSite, useUploadNow } from "@/components/staff/use-listing-sites";
import type { ListingSiteView } from "@/lib/listings/uploads/schemas";
import { SITE_NAMES } from "@/lib/core/listing-sites";
import { describeError } from "@/lib/site/api-client";
import { outcomeText, UploadsList } from "@/components/staff/listing-site-uploads";
import { EditSiteForm } from "@/components/staff/listing-site-edit-form";

// One listing site: on or off, upload now, its last upload, its settings and uploads.

export function SiteCard({ site }: { site: ListingSiteView }) {
  const update = useUpdateListingSite();
  const upload = useUploadNow();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const last = site.lastUpload;
  const name = `${SITE_NAMES[site.site]} (${site.username})`;
  async function act(what: () => Promise<unknown>, failed: string) {
    setProblem(null);
    try {
      await what();
    } catch (error) {
      setProblem(`${failed} ${describeError(error)}`);
    }
  }
  return (
    <li className={panelClass}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h3 className="text-lg font-semibold">{name}</h3>
          <p className="text-sm text-stone-700">
            {site.host}:{site.port}
            {site.secure ? ", FTPS" : ""}
            {site.accountId ? `, account ${site.accountId}` : ""} · {site.enabled ? "On" : "Off"}
          </p>
          <p className="text-sm">
            {last ? (
              <>
                Last upload <DateTime iso={last.startedAt} />: {outcomeText(last)}
                {last.warnings.length ? `, ${last.warnings.length} warning${last.warnings.length === 1 ? "" : "s"}` : ""}.
              </>
            ) : (
              "No upload yet."
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={update.isPending}
            onClick={() => act(() => update.mutateAsync({ id: site.id, patch: { enabled: !site.enabled } }), "Could not switch it.")}
          >
            {site.enabled ? `Switch off ${SITE_NAMES[site.site]}` : `Switch on ${SITE_NAMES[site.site]}`}
          </button>
          <button
            type="button"
            className={primaryButtonClass}
            disabled={upload.isPending}
            onClick={() => act(() => upload.mutateAsync(site.id), "Could not start the upload.")}
          >
            Upload now
          </button>
        </div>
      </div>
      {problem ? (
        <div className="mt-3">
          <FormAlert>{problem}</FormAlert>
        </div>
      ) : null}
      <details className="mt-3" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary className="cursor-pointer text-sm font-semibold text-emerald-800">Last 20 uploads</summary>
        {open ? <UploadsList siteId={site.id} /> : null}
      </details>
      <details className="mt-3" onToggle={(e) => setEditing((e.target as HTMLDetailsElement).open)}>
        <summary className="cursor-pointer text-sm font-semibold text-emerald-800">Change settings</summary>
        {editing ? <EditSiteForm site={site} /> : null}
      </details>
    </li>
  );
}
