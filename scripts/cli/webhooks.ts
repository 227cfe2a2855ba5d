import { Command } from "commander";
import { positiveInt, withDatabase } from "./shared";

export const webhooksCommand = new Command("webhooks").description("Partners' webhook endpoints (registered through the API with webhooks:manage keys).");

webhooksCommand
  .command("list")
  .description("Every key's webhook endpoints: URL, events, state (enabled, failing since, disabled and why), last delivery.")
  .option("--key <id>", "only this API key's endpoints", positiveInt)
  .option("--json", "print JSON")
  .action((opts: { key?: number; json?: boolean }) =>
    withDatabase(async () => {
      const { listAllWebhooks } = await import("@/lib/webhooks/service");
      const endpoints = await listAllWebhooks(opts.key);
      if (opts.json) return console.log(JSON.stringify(endpoints, null, 2));
      if (!endpoints.length) return console.log("No webhook endpoints. Partners register them with POST /v1/webhooks (key scope webhooks:manage).");
      for (const e of endpoints) {
        const state = !e.enabled
          ? `disabled: ${e.disabledReason ?? "no reason recorded"}`
          : e.failingSince
            ? `enabled, failing since ${e.failingSince}`
            : "enabled";
        const last = e.lastAttempt
          ? `last delivery ${e.lastAttempt.at} ${e.lastAttempt.ok ? "ok" : "failed"}${e.lastAttempt.statusCode ? ` (${e.lastAttempt.statusCode})` : ""}`
          : "no delivery yet";
        console.log(`${e.id}\tkey ${e.keyId} "${e.keyName}"\t${e.url}\t${e.events.join(",")}\t${state}\t${last}`);
      }
    }),
  );

webhooksCommand
  .command("disable")
  .description("Stop deliveries to an endpoint (its owner can resume them with PATCH /v1/webhooks/{id}).")
  .argument("<key-id>", "the API key's id", positiveInt)
  .argument("<id>", "the endpoint's id (see webhooks list)", positiveInt)
  .action((keyId: number, id: number) =>
    withDatabase(async () => {
      const { disableWebhookByStaff } = await import("@/lib/webhooks/service");
      const { PLATFORM } = await import("@/lib/organizations/tenancy");
      const endpoint = await disableWebhookByStaff(keyId, id, "the command line", PLATFORM);
      console.log(`Disabled webhook endpoint ${endpoint.id} (${endpoint.url}) of key ${endpoint.keyId}.`);
    }),
  );
