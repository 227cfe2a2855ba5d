"use client";

import { useState } from "react";
import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { hintClass, inputClass, labelClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useAddListingSite, useListingSites, useListingUploads, useTestConnection, useUpdateListingSite, useUploadNow } from "@/components/staff/use-listing-sites";
import { DEFAULT_HOSTS, NEEDS_ACCOUNT_ID, type ConnectionTest, type ListingSiteView, type ListingUpload } from "@/lib/listings/uploads/schemas";
import { LISTING_SITES, SITE_NAMES, type ListingSite } from "@/lib/listings/sites";
import { describeError } from "@/lib/site/api-client";
import { TableScroll } from "@/components/staff/table-scroll";

// Add a listing site (after testing its credentials), switch sites on and
// off, upload now, and see each site's last uploads. The password is typed
// once and never shown again (the API never returns it).

const ACCOUNT_LABEL: Record<ListingSite, string> = { petfinder: "Petfinder shelter ID", adoptapet: "", rescuegroups: "RescueGroups orgID" };

interface Draft {
  site: ListingSite;
  host: string;
  port: string;
  secure: boolean;
  username: string;
  password: string;
  accountId: string;
  organizationId: string;
}

const EMPTY: Draft = { site: "petfinder", host: "", port: "21", secure: false, username: "", password: "", accountId: "", organizationId: "" };

function outcomeText(upload: ListingUpload): string {
  if (upload.outcome === "running") return "Running…";
  if (upload.outcome === "failed") return `Failed: ${upload.error ?? "unknown error"}`;
  return `Sent ${upload.animals} animal${upload.animals === 1 ? "" : "s"}, ${upload.photos} photo file${upload.photos === 1 ? "" : "s"}`;
}

function AddSiteForm({ platformAdmin }: { platformAdmin: boolean }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [tested, setTested] = useState<ConnectionTest | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const add = useAddListingSite();
  const test = useTestConnection();
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setTested(null);
  };
  const credentials = () => ({
    site: draft.site,
    ...(draft.host.trim() ? { host: draft.host.trim() } : {}),
    port: Number(draft.port) || 21,
    secure: draft.secure,
    username: draft.username,
    password: draft.password,
  });

  async function onTest() {
    setProblem(null);
    try {
      setTested(await test.mutateAsync(credentials()));
    } catch (error) {
      setProblem(`Could not test the connection. ${describeError(error)}`);
    }
  }

  async function onAdd(event: React.FormEvent) {
    event.preventDefault();
    setProblem(null);
    setAdded(null);
    try {
      const site = await add.mutateAsync({
        ...credentials(),
        enabled: true,
        ...(NEEDS_ACCOUNT_ID[draft.site] ? { accountId: draft.accountId.trim() } : {}),
        ...(platformAdmin && draft.organizationId ? { organizationId: Number(draft.organizationId) } : {}),
      });
      setAdded(`Added ${SITE_NAMES[site.site]} (${site.username}). Its first upload follows the next change, or press “Upload now”.`);
      setDraft(EMPTY);
      setTested(null);
    } catch (error) {
      setProblem(`The site was not added. ${describeError(error)}`);
    }
  }

  return (
    <section aria-labelledby="add-listing-site" className={panelClass}>
      <h2 id="add-listing-site" className="mb-3 text-lg font-semibold">
        Add a site
      </h2>
      <form onSubmit={onAdd} className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="ls-site" className={labelClass}>
            Site
          </label>
          <select id="ls-site" className={inputClass(false)} value={draft.site} onChange={(e) => set({ site: e.target.value as ListingSite, accountId: "" })}>
            {LISTING_SITES.map((site) => (
              <option key={site} value={site}>
                {SITE_NAMES[site]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="ls-host" className={labelClass}>
            FTP server
          </label>
          <input id="ls-host" className={inputClass(false)} value={draft.host} placeholder={DEFAULT_HOSTS[draft.site]} onChange={(e) => set({ host: e.target.value })} aria-describedby="ls-host-hint" />
          <p id="ls-host-hint" className={hintClass}>
            Leave empty for {DEFAULT_HOSTS[draft.site]}.
          </p>
        </div>
        <div>
          <label htmlFor="ls-port" className={labelClass}>
            Port
          </label>
          <input id="ls-port" inputMode="numeric" className={inputClass(false)} value={draft.port} onChange={(e) => set({ port: e.target.value })} />
        </div>
        <div className="flex items-end gap-2 pb-2">
          <input id="ls-secure" type="checkbox" checked={draft.secure} onChange={(e) => set({ secure: e.target.checked })} className="h-5 w-5" />
          <label htmlFor="ls-secure" className="text-sm font-semibold text-stone-800">
            Use FTPS (explicit TLS)
          </label>
        </div>
        <div>
          <label htmlFor="ls-username" className={labelClass}>
            FTP user name
          </label>
          <input id="ls-username" autoComplete="off" required className={inputClass(false)} value={draft.username} onChange={(e) => set({ username: e.target.value })} />
        </div>
        <div>
          <label htmlFor="ls-password" className={labelClass}>
            FTP password
          </label>
          <input id="ls-password" type="password" autoComplete="new-password" required className={inputClass(false)} value={draft.password} onChange={(e) => set({ password: e.target.value })} />
        </div>
        {NEEDS_ACCOUNT_ID[draft.site] ? (
          <div>
            <label htmlFor="ls-account" className={labelClass}>
              {ACCOUNT_LABEL[draft.site]}
            </label>
            <input id="ls-account" required className={inputClass(false)} value={draft.accountId} onChange={(e) => set({ accountId: e.target.value })} />
          </div>
        ) : null}
        {platformAdmin ? (
          <div>
            <label htmlFor="ls-org" className={labelClass}>
              Organisation id
            </label>
            <input id="ls-org" inputMode="numeric" required className={inputClass(false)} value={draft.organizationId} onChange={(e) => set({ organizationId: e.target.value })} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-3 sm:col-span-2">
          <button type="button" className={secondaryButtonClass} onClick={onTest} disabled={test.isPending || !draft.username || !draft.password}>
            {test.isPending ? "Testing…" : "Test connection"}
          </button>
          <button type="submit" className={primaryButtonClass} disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add site"}
          </button>
        </div>
      </form>
      <div className="mt-4 space-y-3" aria-live="polite">
        {tested ? (
          tested.ok ? (
            <FormAlert tone="info">
              Connected and logged in. The folder holds: {tested.entries.length ? tested.entries.join(", ") : "nothing yet"}.
            </FormAlert>
          ) : (
            <FormAlert>Could not log in: {tested.error}</FormAlert>
          )
        ) : null}
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        {added ? <FormAlert tone="info">{added}</FormAlert> : null}
      </div>
    </section>
  );
}

function UploadsList({ siteId }: { siteId: number }) {
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

function SiteCard({ site }: { site: ListingSiteView }) {
  const update = useUpdateListingSite();
  const upload = useUploadNow();
  const [open, setOpen] = useState(false);
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
          <button type="button" className={primaryButtonClass} disabled={upload.isPending} onClick={() => act(() => upload.mutateAsync(site.id), "Could not start the upload.")}>
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
    </li>
  );
}

export function ListingSitesManager({ platformAdmin = false }: { platformAdmin?: boolean }) {
  const sites = useListingSites();
  return (
    <div className="space-y-6">
      <AddSiteForm platformAdmin={platformAdmin} />
      <section aria-labelledby="listing-sites-list" className="space-y-3">
        <h2 id="listing-sites-list" className="text-lg font-semibold">
          Your sites
        </h2>
        {sites.isPending ? (
          <p className="text-stone-700">Loading…</p>
        ) : sites.error ? (
          <FormAlert>Could not load the listing sites. {describeError(sites.error)}</FormAlert>
        ) : sites.data.length === 0 ? (
          <p className="text-stone-700">No listing site yet: add one above with the FTP account the site gave you.</p>
        ) : (
          <ul className="space-y-3">
            {sites.data.map((site) => (
              <SiteCard key={site.id} site={site} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
