"use client";

import { useState } from "react";
import { FormAlert } from "@/components/staff/form-alert";
import { IssuedKey } from "@/components/staff/issued-key";
import { KeysHelp } from "@/components/staff/keys-help";
import { KeysTable, type KeyAction } from "@/components/staff/keys-table";
import { NewKeyForm } from "@/components/staff/new-key-form";
import { linkClass, secondaryButtonClass } from "@/components/staff/styles";
import { useApiKeys, useKeyAction } from "@/components/staff/use-api-keys";
import { useOrganizationsById } from "@/components/staff/use-organizations";
import type { ApiKeySummary } from "@/lib/keys/schemas";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";

/**
 * Issue keys, see every key, revoke them, lift bans. An organisation's staff
 * see their own organisation's keys (the API lists no others); a platform
 * admin sees every one, with whose it is.
 */
export function KeysManager({ platformAdmin = false }: { platformAdmin?: boolean }) {
  const keys = useApiKeys(true);
  const action = useKeyAction();
  const owned = useOrganizationsById(
    (keys.data ?? []).flatMap((k) => (k.organizationId === null ? [] : [k.organizationId])),
    platformAdmin,
  );
  const owners = platformAdmin ? new Map(owned.data?.map((o) => [o.id, o.name])) : undefined;
  const [issued, setIssued] = useState<{ key: string; summary: ApiKeySummary } | null>(null);
  const [news, setNews] = useState<{ tone: "done" | "error"; text: string } | null>(null);

  async function run(key: ApiKeySummary, what: KeyAction) {
    setNews(null);
    try {
      await action.mutateAsync({ key, action: what });
      setNews({ tone: "done", text: what === "revoke" ? `Revoked the key “${key.name}”.` : `Lifted the ban on “${key.name}”.` });
    } catch (error) {
      setNews({ tone: "error", text: `${what === "revoke" ? "Could not revoke" : "Could not lift the ban on"} “${key.name}”. ${describeError(error)}` });
    }
  }

  const sessionGone = keys.error instanceof ApiClientError && (keys.error.status === 401 || keys.error.status === 403);

  return (
    <div className="space-y-8">
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <NewKeyForm onIssued={setIssued} platformAdmin={platformAdmin} />
        {issued ? <IssuedKey keyText={issued.key} name={issued.summary.name} onDismiss={() => setIssued(null)} /> : <KeysHelp platformAdmin={platformAdmin} />}
      </div>

      <section aria-labelledby="keys-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="keys-heading" className="text-lg font-semibold">
            Keys
          </h2>
          <button type="button" onClick={() => void keys.refetch()} disabled={keys.isFetching} className={secondaryButtonClass}>
            {keys.isFetching ? "Refreshing…" : "Refresh"}
          </button>
        </div>
        <div role="status" className="text-sm text-emerald-900 empty:hidden">
          {news?.tone === "done" ? news.text : null}
        </div>
        {news?.tone === "error" ? <FormAlert>{news.text}</FormAlert> : null}
        {keys.isPending ? (
          <p className="text-stone-700">Loading keys…</p>
        ) : keys.isError && !keys.data ? (
          <FormAlert>
            Could not load the keys. {describeError(keys.error)}{" "}
            {sessionGone ? (
              <a href="/staff/sign-in?next=/staff/keys" className={linkClass}>
                Sign in as staff
              </a>
            ) : null}
          </FormAlert>
        ) : keys.data.length === 0 ? (
          <p className="text-stone-700">No keys yet. Issue the first one above.</p>
        ) : (
          <KeysTable keys={keys.data} asOf={keys.dataUpdatedAt} busyId={action.isPending ? action.variables.key.id : null} onAction={run} owners={owners} />
        )}
      </section>
    </div>
  );
}
