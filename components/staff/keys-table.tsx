"use client";

import { Fragment, useState } from "react";
import { DateTime } from "@/components/staff/date-time";
import { keyState } from "@/components/staff/key-state";
import { KeyStateBadge } from "@/components/staff/key-state-badge";
import { KeyWebhooks } from "@/components/staff/key-webhooks";
import { PLAN_NAMES } from "@/components/staff/plan-names";
import { dangerButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import type { ApiKeySummary } from "@/lib/keys/schemas";

const count = (n: number) => n.toLocaleString("en-US");

export type KeyAction = "revoke" | "lift-ban";

const COLUMNS = ["Name", "Key", "Plan", "Limits", "Created", "Last used", "Used today", "State", "Actions"];
const COLUMNS_WITH_OWNER = ["Name", "Key", "Organisation", "Plan", "Limits", "Created", "Last used", "Used today", "State", "Actions"];

/**
 * Every key: how to tell it apart (prefix…last four), its plan and limits,
 * when it was made and last used, today's usage and its state, with the
 * actions that state allows, and its webhook endpoints on demand. Revoking
 * asks for a second click.
 */
export function KeysTable({
  keys,
  asOf,
  busyId,
  onAction,
  owners,
}: {
  keys: ApiKeySummary[];
  /**
   * For platform admins, who see every organisation's keys: whose each key
   * is, by organisation id (a name, or undefined while unknown). Absent for
   * an organisation's staff, whose keys are all their own.
   */
  owners?: Map<number, string | undefined>;
  /** When the list was fetched: bans are judged at that moment. */
  asOf: number;
  busyId: number | null;
  onAction: (key: ApiKeySummary, action: KeyAction) => void;
}) {
  const [confirming, setConfirming] = useState<number | null>(null);
  const [showingWebhooks, setShowingWebhooks] = useState<ReadonlySet<number>>(new Set());
  const toggleWebhooks = (id: number) =>
    setShowingWebhooks((shown) => {
      const next = new Set(shown);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  // A region of its own that scrolls sideways on a phone (the page never
  // does); `relative` so the screen-reader-only texts, absolutely placed,
  // stay inside it instead of widening the page.
  return (
    <div
      role="region"
      aria-labelledby="keys-caption"
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
    >
      <table className="min-w-full text-left text-sm">
        <caption id="keys-caption" className="sr-only">
          API keys
        </caption>
        <thead className="bg-stone-100 text-stone-800">
          <tr>
            {(owners ? COLUMNS_WITH_OWNER : COLUMNS).map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-3 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200">
          {keys.map((key) => {
            const state = keyState(key, asOf);
            const busy = busyId === key.id;
            const asking = confirming === key.id;
            const webhooksShown = showingWebhooks.has(key.id);
            return (
              <Fragment key={key.id}>
                <tr className={state.kind === "revoked" ? "text-stone-600" : undefined}>
                  <th scope="row" className="max-w-48 break-words px-3 py-2 font-semibold text-stone-900">
                    {key.name}
                  </th>
                  <td className="whitespace-nowrap px-3 py-2">
                    <code className="font-mono">{key.display}</code>
                  </td>
                  {owners ? (
                    <td className="max-w-48 px-3 py-2 wrap-anywhere">
                      {key.organizationId === null ? (
                        <span className="font-semibold">Platform key</span>
                      ) : (
                        (owners.get(key.organizationId) ?? `Organisation ${key.organizationId}`)
                      )}
                    </td>
                  ) : null}
                  <td className="px-3 py-2">{PLAN_NAMES[key.plan]}</td>
                  <td className="whitespace-nowrap px-3 py-2">
                    {count(key.perMinute)}/min
                    <br />
                    {count(key.perDay)}/day
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">
                    <DateTime iso={key.createdAt} />
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">{key.lastUsedAt ? <DateTime iso={key.lastUsedAt} /> : "Never"}</td>
                  <td className="whitespace-nowrap px-3 py-2">
                    {count(key.usedToday ?? 0)} of {count(key.perDay)}
                  </td>
                  <td className="px-3 py-2">
                    <KeyStateBadge state={state} />
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap gap-2">
                      {/* A revoked key's endpoints receive nothing more. */}
                      {state.kind !== "revoked" ? (
                        <button
                          type="button"
                          aria-expanded={webhooksShown}
                          aria-controls={`key-${key.id}-webhooks`}
                          onClick={() => toggleWebhooks(key.id)}
                          className={secondaryButtonClass}
                        >
                          Webhooks<span className="sr-only"> of {key.name}</span>
                        </button>
                      ) : null}
                      {state.kind === "banned" ? (
                        <button type="button" disabled={busy} onClick={() => onAction(key, "lift-ban")} className={secondaryButtonClass}>
                          Lift ban<span className="sr-only"> on {key.name}</span>
                        </button>
                      ) : null}
                      {state.kind !== "revoked" ? (
                        <>
                          <button
                            type="button"
                            disabled={busy}
                            onClick={() => {
                              if (!asking) return setConfirming(key.id);
                              setConfirming(null);
                              onAction(key, "revoke");
                            }}
                            className={asking ? dangerButtonClass : secondaryButtonClass}
                          >
                            {asking ? "Confirm revoke" : "Revoke"}
                            <span className="sr-only"> {key.name}</span>
                          </button>
                          {asking ? (
                            <button type="button" onClick={() => setConfirming(null)} className={secondaryButtonClass}>
                              Cancel
                            </button>
                          ) : null}
                        </>
                      ) : null}
                    </div>
                  </td>
                </tr>
                {webhooksShown && state.kind !== "revoked" ? (
                  <tr id={`key-${key.id}-webhooks`} className="bg-stone-50">
                    <td colSpan={owners ? COLUMNS_WITH_OWNER.length : COLUMNS.length} className="px-3 py-2">
                      <KeyWebhooks keyId={key.id} keyName={key.name} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
