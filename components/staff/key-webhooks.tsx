"use client";

import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { secondaryButtonClass } from "@/components/staff/styles";
import { useDisableWebhook, useKeyWebhooks } from "@/components/staff/use-key-webhooks";
import { describeError } from "@/lib/site/api-client";
import type { StaffWebhook } from "@/lib/webhooks/schemas";

const badge = "inline-block rounded-full px-2 py-0.5 text-xs font-semibold";

/** Enabled, failing since when, or disabled (and why). */
function WebhookState({ endpoint }: { endpoint: StaffWebhook }) {
  if (!endpoint.enabled) {
    return (
      <span>
        <span className={`${badge} bg-stone-200 text-stone-800`}>Disabled</span>
        {endpoint.disabledReason ? <span className="block text-xs text-stone-700">{endpoint.disabledReason}</span> : null}
      </span>
    );
  }
  if (endpoint.failingSince) {
    return (
      <span className={`${badge} bg-amber-100 text-amber-900`}>
        Failing since <DateTime iso={endpoint.failingSince} />
      </span>
    );
  }
  return <span className={`${badge} bg-emerald-100 text-emerald-900`}>Enabled</span>;
}

function LastDelivery({ endpoint }: { endpoint: StaffWebhook }) {
  const last = endpoint.lastAttempt;
  if (!last) return <>None yet</>;
  return (
    <>
      <DateTime iso={last.at} />
      <span className="block text-xs text-stone-700">
        {last.ok ? `Delivered (${last.statusCode})` : last.statusCode ? `Failed (${last.statusCode})` : "Failed (no answer)"}
      </span>
    </>
  );
}

/** One key's webhook endpoints, as staff see them: where, what, their state and last delivery; disabling one. */
export function KeyWebhooks({ keyId, keyName }: { keyId: number; keyName: string }) {
  const endpoints = useKeyWebhooks(keyId);
  const disable = useDisableWebhook();

  if (endpoints.isPending) return <p className="text-sm text-stone-700">Loading webhook endpoints…</p>;
  if (endpoints.isError) return <FormAlert>Could not load the webhook endpoints. {describeError(endpoints.error)}</FormAlert>;
  if (endpoints.data.length === 0) return <p className="text-sm text-stone-700">No webhook endpoints registered with “{keyName}”.</p>;

  return (
    <div className="space-y-2">
      {disable.isError ? <FormAlert>Could not disable the endpoint. {describeError(disable.error)}</FormAlert> : null}
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">Webhook endpoints of {keyName}</caption>
        <thead className="text-stone-800">
          <tr>
            {["Endpoint", "Events", "State", "Last delivery", ""].map((h, i) => (
              <th key={h || i} scope="col" className="whitespace-nowrap px-2 py-1 font-semibold">
                {h || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200">
          {endpoints.data.map((endpoint) => (
            <tr key={endpoint.id} className="align-top">
              <td className="max-w-72 break-all px-2 py-1">
                <code className="font-mono">{endpoint.url}</code>
                {endpoint.description ? <span className="block text-xs text-stone-700">{endpoint.description}</span> : null}
              </td>
              <td className="px-2 py-1">{endpoint.events.join(", ")}</td>
              <td className="px-2 py-1">
                <WebhookState endpoint={endpoint} />
              </td>
              <td className="whitespace-nowrap px-2 py-1">
                <LastDelivery endpoint={endpoint} />
              </td>
              <td className="px-2 py-1">
                {endpoint.enabled ? (
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    disabled={disable.isPending && disable.variables?.id === endpoint.id}
                    onClick={() => disable.mutate(endpoint)}
                  >
                    Disable<span className="sr-only"> {endpoint.url}</span>
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
