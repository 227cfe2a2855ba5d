/**
 * The operators' command line: `npm run cli -- <command>`.
 * Works against the embedded database (DATABASE_URL unset) or DATABASE_URL.
 * Every command has --help; bad input exits non-zero with a clear message.
 */
import "./require-node";
import path from "node:path";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import pg from "pg";
import { z } from "zod";
import { printable } from "@/lib/terminal";
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

/**
 * An organisation named on the command line, by id or slug (`--org 3`,
 * `--org lakeshore-rescue`). Without one, the only organisation of a
 * one-shelter install (so commands written before there were organisations
 * keep working); with several, the command must say which (`otherwise`
 * names the command's other choice, e.g. `--platform`): picking the first
 * silently would give one shelter's key or account to another.
 */
async function organizationId(ref: string | undefined, otherwise?: string): Promise<number> {
  const queries = await import("@/lib/organizations/queries");
  if (ref === undefined) {
    const count = await queries.countOrganizations();
    if (count > 1) {
      throw new Error(`There are ${count} organisations: say whose with --org <id|slug>${otherwise ? ` (or ${otherwise})` : ""}. \`npm run cli -- orgs list\` lists them.`);
    }
    const first = await queries.firstOrganizationId();
    if (first === null) throw new Error("There is no organisation yet: add one with `npm run cli -- orgs create`.");
    return Number(first);
  }
  const found = /^[0-9]+$/.test(ref) ? await queries.findOrganizationById(Number(ref)) : await queries.findOrganizationBySlug(ref);
  if (!found) throw new Error(`There is no organisation "${ref}" (give its id or slug: npm run cli -- orgs list).`);
  return Number(found.id);
}

const program = new Command()
  .name("npm run cli --")
  .description("Petstore operations: database, organisations, API keys, webhooks, staff accounts.")
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

const orgsCommand = program.command("orgs").description("Organisations: the shelters and rescues animals, staff and keys belong to.");

orgsCommand
  .command("create")
  .description("Add an organisation. A US ZIP code (--postcode, --country US) places it; elsewhere give --lat and --lng.")
  .requiredOption("--name <name>", "its name, e.g. \"Lakeshore Animal Rescue\"")
  .requiredOption("--city <city>", "its city")
  .option("--country <code>", "ISO 3166-1 alpha-2 country code", "US")
  .option("--street <street>", "street address")
  .option("--region <region>", "state, province or county, e.g. IL")
  .option("--postcode <code>", "postal code (a US ZIP code places the organisation)")
  .option("--lat <degrees>", "latitude (with --lng; needed outside the US)", Number)
  .option("--lng <degrees>", "longitude", Number)
  .option("--slug <slug>", "its URL name (default: made from the name)")
  .option("--email <email>", "public contact email")
  .option("--phone <phone>", "public phone number")
  .option("--website <url>", "its website")
  .option("--json", "print the organisation as JSON")
  .action(
    (opts: {
      name: string;
      city: string;
      country: string;
      street?: string;
      region?: string;
      postcode?: string;
      lat?: number;
      lng?: number;
      slug?: string;
      email?: string;
      phone?: string;
      website?: string;
      json?: boolean;
    }) =>
      withDatabase(async () => {
        const { newOrganizationSchema } = await import("@/lib/organizations/schemas");
        const { createOrganization } = await import("@/lib/organizations/service");
        if ((opts.lat === undefined) !== (opts.lng === undefined)) throw new Error("give --lat and --lng together");
        const input = await validated(newOrganizationSchema, {
          name: opts.name,
          slug: opts.slug,
          email: opts.email ?? null,
          phone: opts.phone ?? null,
          website: opts.website ?? null,
          address: { street: opts.street ?? null, city: opts.city, region: opts.region ?? null, postcode: opts.postcode ?? null, country: opts.country },
          ...(opts.lat !== undefined ? { location: { lat: opts.lat, lng: opts.lng } } : {}),
        });
        const organization = await createOrganization(input);
        if (opts.json) return console.log(JSON.stringify(organization, null, 2));
        const where = organization.location ? ` at ${organization.location.lat}, ${organization.location.lng}` : "";
        console.log(`Created organisation ${organization.id} "${organization.name}" (/shelters/${organization.slug})${where}.`);
        console.log(`Next: staff with \`npm run cli -- staff create --email E --org ${organization.slug}\`, keys with \`npm run cli -- keys create --name N --org ${organization.slug}\`.`);
      }),
  );

orgsCommand
  .command("list")
  .description("List organisations: id, slug, name, city, and how many animals each has.")
  .option("--json", "print JSON")
  .action((opts: { json?: boolean }) =>
    withDatabase(async () => {
      const { db } = await import("@/lib/db");
      const rows = await db().organization.findMany({
        orderBy: { id: "asc" },
        select: { id: true, slug: true, name: true, city: true, region: true, country: true, lat: true, _count: { select: { pets: true } } },
      });
      if (opts.json) return console.log(JSON.stringify(rows.map((r) => ({ ...r, id: Number(r.id), animals: r._count.pets, _count: undefined })), null, 2));
      for (const r of rows) {
        const place = r.city ? [r.city, r.region, r.country].filter(Boolean).join(", ") : "no address yet";
        console.log(`${r.id}\t${r.slug}\t${r.name}\t${place}${r.lat === null ? " (not placed: near searches miss it)" : ""}\t${r._count.pets} animal(s)`);
      }
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
  .option("--scopes <list>", "comma-separated: pets:read,pets:write,webhooks:manage,applications:write,organizations:manage", parseScopes, ["pets:read", "pets:write"])
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

// `people` (alias `applicants`, its name before alerts): everything held
// about one person, applications and alerts, by email address.
const peopleCommand = program
  .command("people")
  .alias("applicants")
  .description("People's personal data, by email (access and erasure requests): adoption applications and alerts.");

peopleCommand
  .command("export")
  .description("Print everything held about one person (applications, alerts), as JSON.")
  .requiredOption("--email <email>", "the person's email (any case)")
  .action((opts: { email: string }) =>
    withDatabase(async () => {
      const { exportPerson } = await import("@/lib/people/service");
      console.log(JSON.stringify(await exportPerson(opts.email), null, 2));
    }),
  );

peopleCommand
  .command("erase")
  .description("Anonymise every application of one person now (undecided ones are withdrawn) and delete their alerts; the animals' history stays.")
  .requiredOption("--email <email>", "the person's email (any case)")
  .option("--yes", "do it (without it, only says how much would be)")
  .action((opts: { email: string; yes?: boolean }) =>
    withDatabase(async () => {
      const { erasePerson, exportPerson } = await import("@/lib/people/service");
      if (!opts.yes) {
        const { applications, alerts } = await exportPerson(opts.email);
        console.log(`${applications.length} application(s) of ${opts.email} would be anonymised and ${alerts.length} alert(s) deleted. Run again with --yes to do it.`);
        return;
      }
      const erased = await erasePerson(opts.email);
      console.log(`Anonymised ${erased.applications} application(s) and deleted ${erased.alerts} alert(s) of ${opts.email}.`);
    }),
  );

const alertsCommand = program.command("alerts").description("Adopters' email alerts (\"Email me new matches\").");

alertsCommand
  .command("delete")
  .description(
    "Honour an unsubscribe by mail (\"unsubscribe alert N\" sent to ALERTS_UNSUBSCRIBE_MAILTO): deletes alert N only if it goes to the sender's address (any case, +tag, or Gmail dots). Act only on mail whose From: passes DKIM/DMARC alignment; nothing else of the person is touched.",
  )
  .requiredOption("--id <n>", "the alert's id, from the email's subject", positiveInt)
  .requiredOption("--email <sender>", "the address in the email's From: line")
  .action((opts: { id: number; email: string }) =>
    withDatabase(async () => {
      const { email: sender } = await validated(z.object({ email: z.email("must be an email address") }), { email: opts.email.trim() });
      const { deleteAlertForSender } = await import("@/lib/alerts/service");
      // The same answer whether the alert is gone or another address's: the sender learns nothing of others' alerts.
      if (!(await deleteAlertForSender(opts.id, sender))) throw new Error(`No alert ${opts.id} goes to ${sender}: nothing was deleted.`);
      console.log(`Deleted alert ${opts.id} of ${sender}.`);
    }),
  );

const webhooksCommand = program.command("webhooks").description("Partners' webhook endpoints (registered through the API with webhooks:manage keys).");

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
        const state = !e.enabled ? `disabled: ${e.disabledReason ?? "no reason recorded"}` : e.failingSince ? `enabled, failing since ${e.failingSince}` : "enabled";
        const last = e.lastAttempt ? `last delivery ${e.lastAttempt.at} ${e.lastAttempt.ok ? "ok" : "failed"}${e.lastAttempt.statusCode ? ` (${e.lastAttempt.statusCode})` : ""}` : "no delivery yet";
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

const staffCommand = program.command("staff").description("Shelter staff accounts (sign in at /staff/sign-in).");

/**
 * A password, never from the command line (it would show in the process
 * list and shell history): standard input when it is piped, else a prompt
 * that does not echo.
 */
async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
  }
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const output = rl as unknown as { _writeToOutput: (s: string) => void };
  let muted = false;
  output._writeToOutput = (s) => {
    if (!muted) process.stderr.write(s);
  };
  return new Promise((resolve) => {
    rl.question(prompt, (answer) => {
      process.stderr.write("\n");
      rl.close();
      resolve(answer);
    });
    muted = true;
  });
}

const PASSWORD_HELP = "The password is read from standard input (e.g. `printf %s \"$PW\" | npm run cli -- ...`) or asked for at a prompt; never from an argument.";

staffCommand
  .command("create")
  .description(`Create a staff account. The password is stored as a scrypt hash. ${PASSWORD_HELP}`)
  .requiredOption("--email <email>", "the staff member's email address")
  .option("--org <id|slug>", "the organisation whose data the account sees and changes (required when there are several; default: the only one)")
  .option("--platform-admin", "someone who runs the service: sees every organisation's data and adds organisations")
  .action((opts: { email: string; org?: string; platformAdmin?: boolean }) =>
    withDatabase(async () => {
      if (opts.org !== undefined && opts.platformAdmin) throw new Error("give --org or --platform-admin, not both");
      const { newStaffSchema } = await import("@/lib/staff/schemas");
      const { createStaff } = await import("@/lib/staff/service");
      const role = opts.platformAdmin ? ({ platformAdmin: true } as const) : { organizationId: await organizationId(opts.org, "--platform-admin for someone who runs the service") };
      const password = await readPassword(`Password for ${opts.email} (at least 12 characters): `);
      const staff = await createStaff(await validated(newStaffSchema, { email: opts.email, password }), role);
      console.log(`Created staff account ${staff.id} for ${staff.email} (${"platformAdmin" in role ? "platform admin" : `organisation ${role.organizationId}`}).`);
    }),
  );

staffCommand
  .command("set-password")
  .description(`Set a staff account's password; signs it out everywhere. ${PASSWORD_HELP}`)
  .requiredOption("--email <email>", "the staff member's email address")
  .action((opts: { email: string }) =>
    withDatabase(async () => {
      const { emailSchema, newPasswordSchema } = await import("@/lib/staff/schemas");
      const { setStaffPassword } = await import("@/lib/staff/service");
      const email = await validated(emailSchema, opts.email);
      const password = await validated(newPasswordSchema, await readPassword(`New password for ${email} (at least 12 characters): `));
      const ended = await setStaffPassword(email, password);
      console.log(`Changed the password of ${email}; ended ${ended} session${ended === 1 ? "" : "s"}.`);
    }),
  );

staffCommand
  .command("digest")
  .description("Opt a staff member in to (or out of) the daily email of new adoption applications (needs SMTP_URL).")
  .requiredOption("--email <email>", "the staff member's email address")
  .option("--off", "stop the digest (default: start it)")
  .action((opts: { email: string; off?: boolean }) =>
    withDatabase(async () => {
      const { emailSchema } = await import("@/lib/staff/schemas");
      const { db } = await import("@/lib/db");
      const email = await validated(emailSchema, opts.email);
      const { count } = await db().staffUser.updateMany({ where: { email }, data: { applicationDigest: !opts.off } });
      if (count === 0) throw new Error(`There is no staff account for ${email}.`);
      console.log(`${email} ${opts.off ? "no longer gets" : "now gets"} the daily digest of new adoption applications.`);
    }),
  );

staffCommand
  .command("delete")
  .description("Delete a staff account and end its sessions.")
  .requiredOption("--email <email>", "the staff member's email address")
  .action((opts: { email: string }) =>
    withDatabase(async () => {
      const { emailSchema } = await import("@/lib/staff/schemas");
      const { deleteStaff } = await import("@/lib/staff/service");
      const email = await validated(emailSchema, opts.email);
      await deleteStaff(email);
      console.log(`Deleted the staff account ${email}.`);
    }),
  );

staffCommand
  .command("list")
  .description("List staff accounts: id, email, created, active sessions, and whether it has the published demo password.")
  .option("--json", "print JSON")
  .action((opts: { json?: boolean }) =>
    withDatabase(async () => {
      const { listStaff } = await import("@/lib/staff/service");
      const staff = await listStaff(new Date());
      if (opts.json) return console.log(JSON.stringify(staff, null, 2));
      if (!staff.length) return console.log("No staff accounts. Create one with: npm run cli -- staff create --email E");
      for (const s of staff) {
        const whose = s.platformAdmin ? "platform admin" : `organisation ${s.organizationId}`;
        console.log(`${s.id}\t${s.email}\t${whose}\tcreated ${s.createdAt}\t${s.activeSessions} active session(s)${s.demoPassword ? "\tDEMO PASSWORD: change or delete" : ""}`);
      }
    }),
  );

staffCommand
  .command("lockouts")
  .description(
    "Sign-in lock-outs in force and failed attempts being counted (per account and address, and per address). Only a keyed hash of each email tried is kept: staff accounts are named, other emails shown as guesses (run with the server's SESSION_SECRET).",
  )
  .action(() =>
    withDatabase(async () => {
      const { listLockouts } = await import("@/lib/staff/throttle");
      const rows = await listLockouts(new Date());
      if (!rows.length) return console.log("No failed sign-ins are being counted.");
      for (const r of rows) {
        const who =
          r.scope === "staff" ? `${r.email} from ${r.address}` : r.scope === "unknown_email" ? `an email that is no staff account, from ${r.address}` : `address ${r.address}`;
        const state = r.lockedUntil ? `locked until ${r.lockedUntil.toISOString()} (lock-out ${r.lockouts} in a row)` : `${r.attempts} failed attempt(s)`;
        console.log(`${who}\t${state}`);
      }
    }),
  );

staffCommand
  .command("unlock")
  .description("Lift sign-in lock-outs: of an account (from every address, or --address only), or of an address.")
  .option("--email <email>", "the account's email address")
  .option("--address <ip>", "the client address (IPv6 addresses count by their /64)")
  .action((opts: { email?: string; address?: string }) =>
    withDatabase(async () => {
      if (!opts.email && !opts.address) throw new Error("give --email, --address, or both");
      const { emailSchema } = await import("@/lib/staff/schemas");
      const { normalizeAddress } = await import("@/lib/http/client");
      const { unlock } = await import("@/lib/staff/throttle");
      const email = opts.email ? await validated(emailSchema, opts.email) : undefined;
      const address = opts.address ? normalizeAddress(opts.address) : undefined;
      if (opts.address && !address) throw new Error(`"${opts.address}" is not an IP address`);
      const lifted = await unlock({ email, address: address ?? undefined });
      console.log(`Lifted ${lifted} lock-out record${lifted === 1 ? "" : "s"}.`);
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
      const { petView } = await import("@/lib/pets/present");
      const { describeActor, describeChanges } = await import("@/lib/audit/format");
      const { LIMIT_MAX } = await import("@/lib/pets/schemas");
      const entries = [];
      let cursor: string | undefined;
      do {
        const page = await listPetHistory(opts.pet, { limit: LIMIT_MAX, cursor }, petView(new Date()));
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

program
  .command("import")
  .description("Import a listing file (Petfinder, Adopt-a-Pet, RescueGroups, or a CSV with --mapping) into an organisation, as POST /v1/imports does; exits 1 when rows were rejected.")
  .argument("<file>", "the CSV file")
  .option("--org <id|slug>", "the organisation the animals are for (required when there are several; default: the only one)")
  .option("--format <format>", "petfinder, adoptapet, rescuegroups or generic (default: found from the file)")
  .option("--mapping <file>", "for a generic CSV: a JSON file mapping our fields to its columns (default: the organisation's last one)")
  .option("--dry-run", "report what the import would do, and change nothing")
  .option("--missing <policy>", "keep (default), or adopted: the organisation's available animals absent from the file become sold", "keep")
  .option("--as <email>", "the staff account the changes are recorded under (default: the organisation's only staff account)")
  .action((file: string, opts: { org?: string; format?: string; mapping?: string; dryRun?: boolean; missing: string; as?: string }) =>
    withDatabase(async () => {
      const fs = await import("node:fs");
      const { db } = await import("@/lib/db");
      const { createImport, listImportIssues } = await import("@/lib/imports/service");
      const { ImportBusyError, runImport } = await import("@/lib/imports/run");
      const { ApiError } = await import("@/lib/http/errors");
      // Cells, names and messages from the file are printed as text, never as the escape sequences they may hold.
      const say = (line: string) => console.log(printable(line));
      const org = await organizationId(opts.org);
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(file);
      } catch (error) {
        throw new Error(`cannot read ${file}: ${(error as { code?: string }).code ?? String(error)}`);
      }
      // The changes are recorded under a person, as every change to an animal is (the audit trail names who).
      const staff = await db().staffUser.findMany({
        where: opts.as ? { email: opts.as.toLowerCase() } : { organizationId: BigInt(org) },
        select: { id: true, email: true, organizationId: true, platformAdmin: true },
        take: 2,
      });
      const actor = staff[0];
      if (!actor || (opts.as && actor.organizationId !== BigInt(org) && !actor.platformAdmin)) {
        throw new Error(opts.as ? `${opts.as} is not a staff account of this organisation (npm run cli -- staff list).` : "The organisation has no staff account to record the changes under: add one (npm run cli -- staff create), or name one with --as <email>.");
      }
      if (!opts.as && staff.length > 1) throw new Error("The organisation has several staff accounts: say whose name the changes go under with --as <email>.");
      const fields: Record<string, string> = { missing: opts.missing, dryRun: opts.dryRun ? "true" : "false" };
      if (opts.format) fields.format = opts.format;
      if (opts.mapping) fields.mapping = fs.readFileSync(opts.mapping, "utf8");
      const created = await createImport(
        { file: bytes, fileName: path.basename(file), fields },
        { actor: { kind: "staff", id: Number(actor.id), email: actor.email }, requestId: `cli-import`, tenancy: { kind: "organization", organizationId: org } },
      ).catch((error: unknown) => {
        if (!(error instanceof ApiError)) throw error;
        const detail = error.details?.map((d) => `${d.field}: ${d.issue}`).join("; ");
        throw new Error(`${error.message}${detail && !error.message.includes(detail) ? ` (${detail})` : ""}`);
      });
      say(`Import ${created.id}: ${created.counts.rows} rows, ${created.format} (${created.encoding})${created.dryRun ? ", dry run" : ""}.`);
      // A bar on a terminal; nothing in between for a script or a log.
      const tty = process.stdout.isTTY;
      const draw = async () => {
        const row = await db().import.findUnique({ where: { id: BigInt(created.id) }, select: { counts: true, photos: true } });
        if (!row) return;
        const c = row.counts as { rows: number; created: number; updated: number; unchanged: number; rejected: number };
        const p = row.photos as { queued: number; stored: number; failed: number };
        const rowsDone = c.created + c.updated + c.unchanged + c.rejected;
        const [done, total, what] = rowsDone < c.rows || !p.queued ? [rowsDone, c.rows, "rows"] : [p.stored + p.failed, p.queued, "photos"];
        const width = 30;
        const filled = total ? Math.round((done / total) * width) : width;
        process.stdout.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${what}   `);
      };
      const timer = tty ? setInterval(() => void draw().catch(() => {}), 200) : undefined;
      try {
        // Queued, the import has a job too: a running server's worker may take it first. One runs it (the
        // lease); the other follows it to the end.
        await runImport(created.id).catch(async (error: unknown) => {
          if (!(error instanceof ImportBusyError)) throw error;
          say(`Import ${created.id} is being run by the server's job worker: following it.`);
          for (;;) {
            const row = await db().import.findUnique({ where: { id: BigInt(created.id) }, select: { status: true } });
            if (!row || row.status === "done" || row.status === "failed") return;
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        });
      } finally {
        if (timer) clearInterval(timer);
      }
      if (tty) {
        await draw();
        process.stdout.write("\n");
      }
      const { getImport } = await import("@/lib/imports/service");
      const report = await getImport(created.id, org);
      const c = report.counts;
      for (let cursor: string | undefined, first = true; first || cursor; first = false) {
        const page = await listImportIssues(created.id, org, { limit: 500, cursor });
        for (const e of page.issues) say(`  line ${e.line}${e.field ? ` (${e.field})` : ""}${e.result === "refused" ? " refused" : " imported, warning"}: ${e.message}`);
        cursor = page.next;
      }
      // The words no value map covers: what a person adds to the mapping's `values` before the real run.
      for (const [field, words] of Object.entries(report.unknownWords)) say(`Unknown ${field} words (add them to values.${field}): ${words.map((w) => `"${w.word}" ×${w.count}`).join(", ")}`);
      say(
        `${report.status === "done" ? (report.dryRun ? "Would import" : "Imported") : "FAILED after"}: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.rejected} rejected` +
          `${c.adopted ? `, ${c.adopted} marked adopted` : ""}; photos: ${report.photos.stored} stored, ${report.photos.failed} failed of ${report.photos.queued}.`,
      );
      if (report.status !== "done" || c.rejected > 0) process.exitCode = 1;
    }),
  );

export { program, withDatabase };

if (process.argv[1]?.endsWith("cli.ts")) {
  program.parseAsync(process.argv).catch((error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    // A message may quote a file's cells (the first line of a file whose format cannot be told): printed as text.
    console.error(`error: ${printable(error instanceof Error ? error.message : String(error))}`);
    process.exit(1);
  });
}
