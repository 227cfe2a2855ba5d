"use client";

import { useState } from "react";
import { FormAlert } from "@/components/staff/form-alert";
import { hintClass, inputClass, labelClass, primaryButtonClass } from "@/components/staff/styles";
import { FieldError } from "@/components/staff/field-error";
import { useUpdateListingSite } from "@/components/staff/use-listing-sites";
import { DEFAULT_HOSTS, NEEDS_ACCOUNT_ID, type ListingSitePatch, type ListingSiteView } from "@/lib/listings/uploads/schemas";
import { SITE_NAMES } from "@/lib/core/listing-sites";
import { ApiClientError } from "@/lib/site/api-error";
import { showServerError } from "@/components/staff/server-error";
import { ACCOUNT_LABEL } from "@/components/staff/listing-site-shared";

// Changing a listing site's settings; the password is typed again whenever where it goes changes.

interface SettingsDraft {
  host: string;
  port: string;
  secure: boolean;
  username: string;
  password: string;
  accountId: string;
}

/** Change a site's server, account and password. A new server, port, FTPS or user name needs the password again. */
export function EditSiteForm({ site }: { site: ListingSiteView }) {
  const initial: SettingsDraft = {
    host: site.host,
    port: String(site.port),
    secure: site.secure,
    username: site.username,
    password: "",
    accountId: site.accountId ?? "",
  };
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
      setDraft({
        ...initial,
        host: changed.host,
        port: String(changed.port),
        secure: changed.secure,
        username: changed.username,
        accountId: changed.accountId ?? "",
      });
      setSaved(`Saved${patch.password ? ", with the new password" : ""}.`);
    } catch (error) {
      if (error instanceof ApiClientError && error.code === "password_required") {
        setPasswordError("must be typed again: the server, port, FTPS or user name changes");
      } else {
        showServerError(error, { failed: "The settings were not saved", setProblem: ({ message }) => setProblem(message), session: false });
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
        <input
          id={id("username")}
          autoComplete="off"
          required
          className={inputClass(false)}
          value={draft.username}
          onChange={(e) => set({ username: e.target.value })}
        />
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
