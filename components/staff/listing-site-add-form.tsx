"use client";

import { useState } from "react";
import { FormAlert } from "@/components/staff/form-alert";
import { hintClass, inputClass, labelClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useAddListingSite, useTestConnection } from "@/components/staff/use-listing-sites";
import { DEFAULT_HOSTS, NEEDS_ACCOUNT_ID, type ConnectionTest } from "@/lib/listings/uploads/schemas";
import { LISTING_SITES, SITE_NAMES, type ListingSite } from "@/lib/core/listing-sites";
import { showServerError } from "@/components/staff/server-error";
import { describeTestError } from "@/components/staff/listing-site-shared";
import { ACCOUNT_LABEL } from "@/components/staff/listing-site-shared";

// Adding a listing site: its credentials tested first, then saved.

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

export function AddSiteForm({ platformAdmin }: { platformAdmin: boolean }) {
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
      showServerError(error, { failed: "The site was not added", setProblem: ({ message }) => setProblem(message), session: false });
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
          <input
            id="ls-host"
            className={inputClass(false)}
            value={draft.host}
            placeholder={DEFAULT_HOSTS[draft.site]}
            onChange={(e) => set({ host: e.target.value })}
            aria-describedby="ls-host-hint"
          />
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
          <input
            id="ls-username"
            autoComplete="off"
            required
            className={inputClass(false)}
            value={draft.username}
            onChange={(e) => set({ username: e.target.value })}
          />
        </div>
        <div>
          <label htmlFor="ls-password" className={labelClass}>
            FTP password
          </label>
          <input
            id="ls-password"
            type="password"
            autoComplete="new-password"
            required
            className={inputClass(false)}
            value={draft.password}
            onChange={(e) => set({ password: e.target.value })}
          />
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
            <input
              id="ls-org"
              inputMode="numeric"
              required
              className={inputClass(false)}
              value={draft.organizationId}
              onChange={(e) => set({ organizationId: e.target.value })}
            />
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
            <FormAlert tone="info">Connected and logged in. The folder holds: {tested.entries.length ? tested.entries.join(", ") : "nothing yet"}.</FormAlert>
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
