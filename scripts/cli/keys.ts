import { Command } from "commander";
import { z } from "zod";
import { KEY_SCOPES } from "@/lib/keys/schemas";
import { organizationId, positiveInt, validated, withDatabase } from "./shared";

export const keysCommand = new Command("keys").description("API keys for third parties.");

function parseScopes(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

keysCommand
  .command("create")
  .description("Issue a key. Prints it once, alone on the last line of standard output; only its hash is stored.")
  .requiredOption("--name <name>", 'who the key is for, e.g. "Acme shelter app"')
  .option("--plan <plan>", "free | pro | business | enterprise", "free")
  .option("--per-minute <n>", "requests per minute (enterprise only)", positiveInt)
  .option("--per-day <n>", "requests per day (enterprise only)", positiveInt)
  // From the list the API checks: a scope added there is offered here by itself.
  .option("--scopes <list>", `comma-separated, any of: ${KEY_SCOPES.join(",")}`, parseScopes, ["pets:read", "pets:write"])
  .option("--org <id|slug>", "the organisation whose key it is (required when there are several; default: the only one)")
  .option("--platform", "a platform key, for listing sites and operators: reads every organisation's data, writes only by naming an organisation")
  .action((opts: { name: string; plan: string; perMinute?: number; perDay?: number; scopes: string[]; org?: string; platform?: boolean }) =>
    withDatabase(async () => {
      if (opts.org !== undefined && opts.platform) throw new Error("give --org or --platform, not both");
      const { newApiKeySchema } = await import("@/lib/keys/schemas");
      const { createApiKey } = await import("@/lib/keys/service");
      const { org, platform, ...fields } = opts;
      const input = await validated(newApiKeySchema, fields);
      const owner = platform ? null : BigInt(await organizationId(org, "--platform for a platform key"));
      const { key, summary } = await createApiKey(input, owner);
      console.error(
        `Created ${owner === null ? "platform key" : `key of organisation ${owner}`} ${summary.id} "${summary.name}" (${summary.plan}: ${summary.perMinute}/min, ${summary.perDay}/day; ${summary.scopes.join(",")}). It is shown only now:`,
      );
      console.log(key);
    }),
  );

keysCommand
  .command("list")
  .description("List keys: id, organisation (or platform), prefix…last four, plan, limits, last use, today's usage, revocation and bans.")
  .option("--json", "print JSON instead of a table")
  .option("--org <id|slug>", "only this organisation's keys")
  .action((opts: { json?: boolean; org?: string }) =>
    withDatabase(async () => {
      const { listApiKeysWithUsage } = await import("@/lib/keys/service");
      const keys = await listApiKeysWithUsage(new Date(), opts.org === undefined ? undefined : await organizationId(opts.org));
      if (opts.json) return console.log(JSON.stringify(keys, null, 2));
      if (!keys.length) return console.log("No API keys yet. Create one with: npm run cli -- keys create --name NAME");
      console.table(
        keys.map((k) => ({
          id: k.id,
          org: k.organizationId ?? "platform",
          name: k.name,
          key: k.display,
          plan: k.plan,
          limits: `${k.perMinute}/min ${k.perDay}/day`,
          today: k.usedToday,
          scopes: k.scopes.join(","),
          lastUsed: k.lastUsedAt ?? "never",
          state: k.revokedAt ? `revoked ${k.revokedAt}` : k.bannedUntil && new Date(k.bannedUntil) > new Date() ? `banned until ${k.bannedUntil}` : "active",
        })),
      );
    }),
  );

keysCommand
  .command("revoke")
  .description("Revoke a key: every later request with it is answered 401.")
  .argument("<id>", "the key's id (see keys list)", positiveInt)
  .action((id: number) =>
    withDatabase(async () => {
      const { revokeApiKey } = await import("@/lib/keys/service");
      const { PLATFORM } = await import("@/lib/organizations/tenancy");
      const key = await revokeApiKey(id, PLATFORM);
      console.log(`Revoked key ${key.id} (${key.display}).`);
    }),
  );

keysCommand
  .command("set-plan")
  .description("Move a key to another plan; takes effect on its next request.")
  .argument("<id>", "the key's id (see keys list)", positiveInt)
  .argument("<plan>", "free | pro | business | enterprise")
  .option("--per-minute <n>", "requests per minute (enterprise only)", positiveInt)
  .option("--per-day <n>", "requests per day (enterprise only)", positiveInt)
  .action((id: number, plan: string, opts: { perMinute?: number; perDay?: number }) =>
    withDatabase(async () => {
      const { planSchema } = await import("@/lib/keys/schemas");
      const { setApiKeyPlan } = await import("@/lib/keys/service");
      const { plan: parsed } = await validated(z.object({ plan: planSchema }), { plan });
      if (parsed !== "enterprise" && (opts.perMinute || opts.perDay)) {
        throw new Error("--per-minute and --per-day are only for the enterprise plan");
      }
      const key = await setApiKeyPlan(id, parsed, opts);
      console.log(`Key ${key.id} (${key.display}) is now on ${key.plan}: ${key.perMinute}/min, ${key.perDay}/day.`);
    }),
  );

keysCommand
  .command("unban")
  .description("Lift a temporary ban (the key's ordinary rate limits still apply).")
  .argument("<id>", "the key's id (see keys list)", positiveInt)
  .action((id: number) =>
    withDatabase(async () => {
      const { unbanApiKey } = await import("@/lib/keys/service");
      const { PLATFORM } = await import("@/lib/organizations/tenancy");
      const key = await unbanApiKey(id, PLATFORM);
      console.log(`Lifted the ban on key ${key.id} (${key.display}).`);
    }),
  );
