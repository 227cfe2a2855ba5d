/**
 * The operators' command line: `npm run cli -- <command>`.
 * Works against the embedded database (DATABASE_URL unset) or DATABASE_URL.
 * Every command has --help; bad input exits non-zero with a clear message.
 */
import path from "node:path";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import pg from "pg";
import { z } from "zod";
import { ROOT } from "./database";
import { generateClientIfStale, migrateAndSeed, prepareDatabase, run } from "./launch";

/** True when migrations were never applied to this database (a fresh one). */
async function neverMigrated(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string | null }>("SELECT to_regclass('public._prisma_migrations')::text AS t");
    return rows[0]?.t == null;
  } finally {
    await client.end();
  }
}

/** Runs `fn` with DATABASE_URL set, the client generated and a fresh database migrated; always cleans up. */
async function withDatabase<T>(fn: () => Promise<T>): Promise<T> {
  const { server, url } = await prepareDatabase();
  process.env.DATABASE_URL = url;
  try {
    generateClientIfStale();
    // A brand-new database (first command on a fresh machine) gets its
    // tables first, so any command works without a separate setup step.
    if (await neverMigrated(url)) run(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], { ...process.env });
    return await fn();
  } finally {
    const { disconnectDb } = await import("@/lib/db");
    const { setCounterStore } = await import("@/lib/rate-limit/shared-store");
    await setCounterStore(undefined);
    await disconnectDb();
    await server.stop();
  }
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError("expected a positive whole number.");
  }
  return Number(value);
}

const program = new Command()
  .name("npm run cli --")
  .description("Petstore operations: database, API keys, staff accounts.")
  .showHelpAfterError()
  .configureOutput({ outputError: (str, write) => write(`error: ${str.replace(/^error: /, "")}`) });

const dbCommand = program.command("db").description("Database schema and demo data.");

dbCommand
  .command("migrate")
  .description("Apply committed migrations (prisma migrate deploy), then seed an empty database.")
  .action(() =>
    withDatabase(async () => {
      await migrateAndSeed({ ...process.env });
    }),
  );

dbCommand
  .command("seed")
  .description("Add the demo categories and animals (idempotent: never duplicates).")
  .action(() =>
    withDatabase(async () => {
      const { DEMO_STAFF, seed } = await import("@/prisma/seed");
      const result = await seed();
      console.log(`Seeded ${result.categories} categories, ${result.petsAdded} animals added.`);
      if (result.demoLogin) console.log(`Demo staff login: ${DEMO_STAFF.email} / ${DEMO_STAFF.password}`);
    }),
  );

dbCommand
  .command("reset")
  .description("Drop all data, re-apply every migration and seed again. Destroys data.")
  .requiredOption("--yes", "confirm that all data in the database is to be destroyed")
  .action(() =>
    withDatabase(async () => {
      run(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "reset", "--force"], { ...process.env });
      await migrateAndSeed({ ...process.env });
    }),
  );

const keysCommand = program.command("keys").description("API keys for third parties.");

function parseScopes(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

/** Turns a service error (an ApiError, or a validation failure) into a CLI message. */
async function validated<T>(schema: import("zod").ZodType<T>, input: unknown): Promise<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  throw new Error(problems);
}

keysCommand
  .command("create")
  .description("Issue a key. Prints it once, alone on the last line of standard output; only its hash is stored.")
  .requiredOption("--name <name>", "who the key is for, e.g. \"Acme shelter app\"")
  .option("--plan <plan>", "free | pro | business | enterprise", "free")
  .option("--per-minute <n>", "requests per minute (enterprise only)", positiveInt)
  .option("--per-day <n>", "requests per day (enterprise only)", positiveInt)
  .option("--scopes <list>", "comma-separated: pets:read,pets:write", parseScopes, ["pets:read", "pets:write"])
  .action((opts: { name: string; plan: string; perMinute?: number; perDay?: number; scopes: string[] }) =>
    withDatabase(async () => {
      const { newApiKeySchema } = await import("@/lib/keys/schemas");
      const { createApiKey } = await import("@/lib/keys/service");
      const input = await validated(newApiKeySchema, opts);
      const { key, summary } = await createApiKey(input);
      console.error(
        `Created key ${summary.id} "${summary.name}" (${summary.plan}: ${summary.perMinute}/min, ${summary.perDay}/day; ${summary.scopes.join(",")}). It is shown only now:`,
      );
      console.log(key);
    }),
  );

keysCommand
  .command("list")
  .description("List keys: id, prefix…last four, plan, limits, last use, today's usage, revocation and bans.")
  .option("--json", "print JSON instead of a table")
  .action((opts: { json?: boolean }) =>
    withDatabase(async () => {
      const { listApiKeysWithUsage } = await import("@/lib/keys/service");
      const keys = await listApiKeysWithUsage(new Date());
      if (opts.json) return console.log(JSON.stringify(keys, null, 2));
      if (!keys.length) return console.log("No API keys yet. Create one with: npm run cli -- keys create --name NAME");
      console.table(
        keys.map((k) => ({
          id: k.id,
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
      const key = await revokeApiKey(id);
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
      const key = await unbanApiKey(id);
      console.log(`Lifted the ban on key ${key.id} (${key.display}).`);
    }),
  );

const staffCommand = program.command("staff").description("Shelter staff accounts (sign in at /staff/sign-in).");

staffCommand
  .command("create")
  .description("Create a staff account. The password is stored as a scrypt hash.")
  .requiredOption("--email <email>", "the staff member's email address")
  .requiredOption("--password <password>", "at least 12 characters")
  .action((opts: { email: string; password: string }) =>
    withDatabase(async () => {
      const { newStaffSchema } = await import("@/lib/staff/schemas");
      const { createStaff } = await import("@/lib/staff/service");
      const staff = await createStaff(await validated(newStaffSchema, opts));
      console.log(`Created staff account ${staff.id} for ${staff.email}.`);
    }),
  );

program
  .command("audit")
  .description("Print an animal's change history (the audit trail), oldest first: when, what, who, the request id.")
  .requiredOption("--pet <id>", "the animal's id", positiveInt)
  .option("--json", "print the entries as JSON (newest first, as GET /v1/pets/{id}/history serves them)")
  .action((opts: { pet: number; json?: boolean }) =>
    withDatabase(async () => {
      const { listPetHistory } = await import("@/lib/pets/service");
      const { describeActor, describeChanges } = await import("@/lib/audit/format");
      const { LIMIT_MAX } = await import("@/lib/pets/schemas");
      const entries = [];
      let cursor: string | undefined;
      do {
        const page = await listPetHistory(opts.pet, { limit: LIMIT_MAX, cursor });
        entries.push(...page.entries);
        cursor = page.next;
      } while (cursor);
      if (opts.json) return console.log(JSON.stringify(entries, null, 2));
      if (!entries.length) return console.log(`Animal ${opts.pet} has no recorded changes (it was loaded, not added through the app).`);
      for (const e of entries.reverse()) {
        console.log(`${e.at}  ${e.action} v${e.version}  by ${describeActor(e.actor)}  request ${e.requestId}  ${describeChanges(e)}`);
      }
    }),
  );

export { program, withDatabase };

if (process.argv[1]?.endsWith("cli.ts")) {
  program.parseAsync(process.argv).catch((error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
