import path from "node:path";
import { InvalidArgumentError } from "commander";
import pg from "pg";
import { ROOT } from "../database";
import { generateClientIfStale, prepareDatabase, run } from "../launch";

// What every command group shares: a database to run against, and parsing
// the arguments that several groups take.

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
export async function withDatabase<T>(fn: () => Promise<T>): Promise<T> {
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
export async function organizationId(ref: string | undefined, otherwise?: string): Promise<number> {
  const queries = await import("@/lib/organizations/queries");
  if (ref === undefined) {
    const count = await queries.countOrganizations();
    if (count > 1) {
      throw new Error(
        `There are ${count} organisations: say whose with --org <id|slug>${otherwise ? ` (or ${otherwise})` : ""}. \`npm run cli -- orgs list\` lists them.`,
      );
    }
    const first = await queries.firstOrganizationId();
    if (first === null) throw new Error("There is no organisation yet: add one with `npm run cli -- orgs create`.");
    return Number(first);
  }
  const found = /^[0-9]+$/.test(ref) ? await queries.findOrganizationById(Number(ref)) : await queries.findOrganizationBySlug(ref);
  if (!found) throw new Error(`There is no organisation "${ref}" (give its id or slug: npm run cli -- orgs list).`);
  return Number(found.id);
}

/** Turns a service error (an ApiError, or a validation failure) into a CLI message. */
export async function validated<T>(schema: import("zod").ZodType<T>, input: unknown): Promise<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  throw new Error(problems);
}
