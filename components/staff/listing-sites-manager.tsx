"use client";

import { useState } from "react";
import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { hintClass, inputClass, labelClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { FieldError } from "@/components/staff/field-error";
import {
  SITE_HISTORY_SHOWN,
  useAddListingSite,
  useListingSiteHistory,
  useListingSites,
  useListingUploads,
  useTestConnection,
  useUpdateListingSite,
  useUploadNow,
} from "@/components/staff/use-listing-sites";
import {
  DEFAULT_HOSTS,
  NEEDS_ACCOUNT_ID,
  type AuditedField,
  type ConnectionTest,
  type ListingSiteHistoryEntry,
  type ListingSitePatch,
  type ListingSiteView,
  type ListingUpload,
} from "@/lib/listings/uploads/schemas";
import { LISTING_SITES, SITE_NAMES, type ListingSite } from "@/lib/core/listing-sites";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";
import { TableScroll } from "@/components/staff/table-scroll";

// Add a listing site (after testing its credentials), change its settings,
// switch sites on and off, upload now, see each site's last uploads, and
// who changed what. The password is typed, never shown again (the API never
// returns it), and typed again whenever the server, port, FTPS or user name
// change: the saved one is only ever sent where it was given for.

/** The connection test's own refusal (its budgets) says what to do; other 429s are the rate limit's. */
function describeTestError(error: unknown): string {
  return error instanceof ApiClientError && error.status === 429 && /tests|tried too often/.test(error.message) ? error.message : describeError(error);
}

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
      setProblem(`Could not test the connection. ${describeTestError(error)}`);
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

interface SettingsDraft {
  host: string;
  port: string;
  secure: boolean;
  username: string;
  password: string;
  accountId: string;
}

/** Change a site's server, account and password. A new server, port, FTPS or user name needs the password again. */
function EditSiteForm({ site }: { site: ListingSiteView }) {
  const initial: SettingsDraft = { host: site.host, port: String(site.port), secure: site.secure, username: site.username, password: "", accountId: site.accountId ?? "" };
  const [draft, setDraft] = useState<SettingsDraft>(initial);
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const update = useUpdateListingSite();
  const id = (field: string) => `ls-${site.id}-${field}`;
  const set = (patch: Partial<SettingsDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(null);
  };

  const host = draft.host.trim().toLowerCase() || DEFAULT_HOSTS[site.site];
  const port = Number(draft.port) || 21;
  const username = draft.username.trim();
  const moves = host !== site.host || port !== site.port || draft.secure !== site.secure || username !== site.username;

  async function onSave(event: React.FormEvent) {
    event.preventDefault();
    setProblem(null);
    setSaved(null);
    setPasswordError(undefined);
    if (moves && !draft.password) {
      setPasswordError("must be typed again: the server, port, FTPS or user name changes, and the saved password is only sent where it was given for");
      document.getElementById(id("password"))?.focus();
      return;
    }
    const patch: ListingSitePatch = {
      ...(host !== site.host ? { host } : {}),
      ...(port !== site.port ? { port } : {}),
      ...(draft.secure !== site.secure ? { secure: draft.secure } : {}),
      ...(username !== site.username ? { username } : {}),
      ...(draft.password ? { password: draft.password } : {}),
      ...(NEEDS_ACCOUNT_ID[site.site] && draft.accountId.trim() !== (site.accountId ?? "") ? { accountId: draft.accountId.trim() } : {}),
    };
    if (Object.keys(patch).length === 0) {
      setSaved("Nothing to save: these are the settings it has.");
      return;
    }
    try {
      const changed = await update.mutateAsync({ id: site.id, patch });
      setDraft({ ...initial, host: changed.host, port: String(changed.port), secure: changed.secure, username: changed.username, accountId: changed.accountId ?? "" });
      setSaved(`Saved${patch.password ? ", with the new password" : ""}.`);
    } catch (error) {
      if (error instanceof ApiClientError && error.code === "password_required") {
        setPasswordError("must be typed again: the server, port, FTPS or user name changes");
      } else {
        setProblem(`The settings were not saved. ${describeError(error)}`);
      }
    }
  }

  return (
    // noValidate: the password's refusal is said in words beside it (the browser's bubble would say only "fill in this field").
    <form noValidate onSubmit={onSave} className="mt-2 grid gap-4 sm:grid-cols-2" aria-label={`Settings of ${SITE_NAMES[site.site]} (${site.username})`}>
      <div>
        <label htmlFor={id("host")} className={labelClass}>
          FTP server
        </label>
        <input id={id("host")} className={inputClass(false)} value={draft.host} onChange={(e) => set({ host: e.target.value })} />
      </div>
      <div>
        <label htmlFor={id("port")} className={labelClass}>
          Port
        </label>
        <input id={id("port")} inputMode="numeric" className={inputClass(false)} value={draft.port} onChange={(e) => set({ port: e.target.value })} />
      </div>
      <div className="flex items-end gap-2 pb-2">
        <input id={id("secure")} type="checkbox" checked={draft.secure} onChange={(e) => set({ secure: e.target.checked })} className="h-5 w-5" />
        <label htmlFor={id("secure")} className="text-sm font-semibold text-stone-800">
          Use FTPS (explicit TLS)
        </label>
      </div>
      <div>
        <label htmlFor={id("username")} className={labelClass}>
          FTP user name
        </label>
        <input id={id("username")} autoComplete="off" required className={inputClass(false)} value={draft.username} onChange={(e) => set({ username: e.target.value })} />
      </div>
      <div>
        <label htmlFor={id("password")} className={labelClass}>
          FTP password
        </label>
        <input
          id={id("password")}
          type="password"
          autoComplete="new-password"
          required={moves}
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={`${id("password-hint")} ${id("password-error")}`}
          className={inputClass(Boolean(passwordError))}
          value={draft.password}
          onChange={(e) => {
            set({ password: e.target.value });
            setPasswordError(undefined);
          }}
        />
        <p id={id("password-hint")} className={hintClass}>
          {moves ? "Required: the server, port, FTPS or user name changes, so type the password for it." : "Leave empty to keep the saved password."}
        </p>
        <FieldError id={id("password-error")} label="The password" message={passwordError} />
      </div>
      {NEEDS_ACCOUNT_ID[site.site] ? (
        <div>
          <label htmlFor={id("account")} className={labelClass}>
            {ACCOUNT_LABEL[site.site]}
          </label>
          <input id={id("account")} required className={inputClass(false)} value={draft.accountId} onChange={(e) => set({ accountId: e.target.value })} />
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="submit" className={primaryButtonClass} disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save settings"}
        </button>
      </div>
      <div className="space-y-3 sm:col-span-2" aria-live="polite">
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        {saved ? <FormAlert tone="info">{saved}</FormAlert> : null}
      </div>
    </form>
  );
}

function SiteCard({ site }: { site: ListingSiteView }) {
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
      <details className="mt-3" onToggle={(e) => setEditing((e.target as HTMLDetailsElement).open)}>
        <summary className="cursor-pointer text-sm font-semibold text-emerald-800">Change settings</summary>
        {editing ? <EditSiteForm site={site} /> : null}
      </details>
    </li>
  );
}

const FIELD_NAMES: Record<AuditedField, string> = {
  host: "server",
  port: "port",
  secure: "FTPS",
  username: "user name",
  password: "password",
  accountId: "account id",
  enabled: "switched",
};

function settingText(field: AuditedField, value: unknown): string {
  if (field === "secure") return value ? "FTPS" : "plain FTP";
  if (value === null || value === undefined || value === "") return "none";
  return String(value);
}

/** One history entry in words: "Changed server members.petfinder.com → ftp.example.org; password". */
function changeText(entry: ListingSiteHistoryEntry): string {
  if (entry.action === "created") return `Added (${entry.after?.host ?? "?"}, user ${entry.after?.username ?? "?"})`;
  if (entry.action === "deleted") return `Removed (${entry.before?.host ?? "?"}, user ${entry.before?.username ?? "?"})`;
  const changed = entry.fields
    .filter((field) => field !== "enabled")
    .map((field) => (field === "password" ? "a new password" : `${FIELD_NAMES[field]} ${settingText(field, entry.before?.[field])} → ${settingText(field, entry.after?.[field])}`));
  const switched = entry.fields.includes("enabled") ? (entry.after?.enabled ? "switched on" : "switched off") : null;
  const text = [changed.length ? `changed ${changed.join("; ")}` : null, switched].filter(Boolean).join("; ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function whoText(actor: ListingSiteHistoryEntry["actor"]): string {
  return actor.kind === "staff" ? actor.email : `API key “${actor.name}” (#${actor.id})`;
}

/** Who added, changed and removed the organisation's sites: a new server or password shows here, whoever made it. */
function SiteHistory() {
  const history = useListingSiteHistory();
  return (
    <section aria-labelledby="listing-sites-history" className={`${panelClass} space-y-3`}>
      <h2 id="listing-sites-history" className="text-lg font-semibold">
        Changes
      </h2>
      <p className="text-sm text-stone-700">Who added, changed and removed your sites, newest first. Passwords are never shown, only that one was changed.</p>
      {history.isPending ? (
        <p className="text-sm text-stone-700">Loading changes…</p>
      ) : history.error ? (
        <FormAlert>Could not load the changes. {describeError(history.error)}</FormAlert>
      ) : history.data.entries.length === 0 ? (
        <p className="text-sm text-stone-700">No changes yet.</p>
      ) : (
        <TableScroll label="Changes to the listing sites, scrollable">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Changes to the listing sites, newest first</caption>
            <thead>
              <tr className="border-b border-stone-200">
                <th scope="col" className="py-1 pr-3">
                  When
                </th>
                <th scope="col" className="py-1 pr-3">
                  Site
                </th>
                <th scope="col" className="py-1 pr-3">
                  Who
                </th>
                <th scope="col" className="py-1">
                  What
                </th>
              </tr>
            </thead>
            <tbody>
              {history.data.entries.map((entry) => (
                <tr key={entry.id} className="border-b border-stone-100 align-top">
                  <td className="py-1 pr-3">
                    <DateTime iso={entry.at} />
                  </td>
                  <td className="py-1 pr-3">{SITE_NAMES[entry.site]}</td>
                  <td className="py-1 pr-3 break-all">{whoText(entry.actor)}</td>
                  <td className="py-1 break-words">{changeText(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {history.data?.more ? <p className="text-sm text-stone-700">Showing the {SITE_HISTORY_SHOWN} most recent changes; GET /v1/listing-sites/history pages through the rest.</p> : null}
    </section>
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
      <SiteHistory />
    </div>
  );
}
