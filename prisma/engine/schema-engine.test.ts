/**
 * End-to-end tests for the Wasm schema-engine shim (prisma/engine/schema-engine.mjs):
 * the real prisma CLI, run in throw-away project directories whose
 * prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY at the shim, against a
 * real PostgreSQL server (TEST_DATABASE_URL; every test gets a scratch
 * database of its own, dropped at the end).
 *
 * See docs/decisions/001-prisma-wasm-schema-engine.md for why the shim exists.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SHIM = path.join(ROOT, "prisma", "engine", "schema-engine.mjs");
const PRISMA_CLI = path.join(ROOT, "node_modules", "prisma", "build", "index.js");
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

// Each prisma CLI call takes one or two seconds (CLI start-up plus the Wasm engine).
const TIMEOUT = 60_000;

const SCHEMA = `datasource db {
  provider = "postgresql"
}

model Pet {
  id   Int    @id @default(autoincrement())
  name String
}
`;

const INIT_MIGRATION = `-- CreateTable
CREATE TABLE "Pet" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "Pet_pkey" PRIMARY KEY ("id")
);
`;

const scratchDatabases: string[] = [];
const projectDirs: string[] = [];

afterAll(async () => {
  await Promise.all(projectDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  await withClient(SERVER_URL, async (client) => {
    for (const name of scratchDatabases) {
      // WITH (FORCE) (PostgreSQL 13+): a failed test may leave connections open.
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    }
  });
}, TIMEOUT);

describe("Wasm schema-engine shim, driven by the prisma CLI", () => {
  it(
    "migrate deploy applies the migrations",
    async () => {
      const url = await createScratchDatabase();
      const dir = await createProject({ "20240101000000_init": INIT_MIGRATION });

      const deploy = await runPrisma(dir, url, ["migrate", "deploy"]);

      expect(deploy.code, deploy.output).toBe(0);
      expect(deploy.output).toContain("All migrations have been successfully applied.");
      const rows = await query(url, `SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations`);
      expect(rows).toEqual([{ migration_name: "20240101000000_init", finished_at: expect.any(Date), rolled_back_at: null }]);
      expect(await tableExists(url, "Pet")).toBe(true);
    },
    TIMEOUT,
  );

  it(
    "a migration that fails halfway changes nothing and is recorded as failed",
    async () => {
      const url = await createScratchDatabase();
      const dir = await createProject({
        "20240101000000_init": INIT_MIGRATION,
        "20240102000000_broken": [
          `CREATE TABLE "Halfway" ("id" INTEGER PRIMARY KEY);`,
          `INSERT INTO "Halfway" ("id") VALUES (1);`,
          `INSERT INTO "Pet" ("name") VALUES ('Rex');`,
          `SELECT * FROM "table_that_does_not_exist";`,
          ``,
        ].join("\n"),
      });

      const deploy = await runPrisma(dir, url, ["migrate", "deploy"]);

      expect(deploy.code, deploy.output).not.toBe(0);
      expect(deploy.output).toContain("20240102000000_broken");
      // The whole migration ran as one implicit transaction: nothing of it remains.
      expect(await tableExists(url, "Halfway")).toBe(false);
      expect(await query(url, `SELECT * FROM "Pet"`)).toEqual([]);
      const rows = await query(url, `SELECT migration_name, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY migration_name`);
      expect(rows).toEqual([
        { migration_name: "20240101000000_init", finished_at: expect.any(Date), rolled_back_at: null, logs: null },
        {
          migration_name: "20240102000000_broken",
          finished_at: null,
          rolled_back_at: null,
          logs: expect.stringContaining("table_that_does_not_exist"),
        },
      ]);

      // The failed migration blocks the next deploy until it is resolved.
      const again = await runPrisma(dir, url, ["migrate", "deploy"]);
      expect(again.code, again.output).not.toBe(0);
      expect(again.output).toContain("P3009");
    },
    TIMEOUT,
  );

  it(
    "applies a migration with ';' inside comments, strings and a $$ function body",
    async () => {
      const url = await createScratchDatabase();
      const dir = await createProject({
        "20240101000000_init": INIT_MIGRATION,
        "20240102000000_function": `-- A comment; with a semicolon; or two
ALTER TABLE "Pet" ADD COLUMN "note" TEXT NOT NULL DEFAULT 'a;b';
/* A block comment; also with a semicolon */
CREATE FUNCTION "pet_count"() RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  n INTEGER;
BEGIN
  SELECT count(*) INTO n FROM "Pet";
  RETURN n;
END;
$$;
INSERT INTO "Pet" ("name") VALUES ('Rex');
`,
      });

      const deploy = await runPrisma(dir, url, ["migrate", "deploy"]);

      expect(deploy.code, deploy.output).toBe(0);
      expect(await query(url, `SELECT "pet_count"() AS n, (SELECT "note" FROM "Pet") AS note`)).toEqual([{ n: 1, note: "a;b" }]);
      const rows = await query(url, `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL`);
      expect(rows).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    "migrate diff --from-empty --to-schema --script prints the SQL",
    async () => {
      // The Wasm engine connects to the database on start-up, even for a diff
      // that needs none, so this too runs against a (scratch) database.
      const url = await createScratchDatabase();
      const dir = await createProject({});

      const diff = await runPrisma(dir, url, ["migrate", "diff", "--from-empty", "--to-schema", "prisma/schema.prisma", "--script"]);

      expect(diff.code, diff.output).toBe(0);
      expect(diff.stdout).toContain(`CREATE TABLE "Pet"`);
      expect(diff.stdout).toContain(`CONSTRAINT "Pet_pkey" PRIMARY KEY ("id")`);
    },
    TIMEOUT,
  );

  it(
    "migrate dev creates a migration through a shadow database and drops the shadow database",
    async () => {
      const url = await createScratchDatabase();
      const dir = await createProject({ "20240101000000_init": INIT_MIGRATION });
      await writeFile(path.join(dir, "prisma", "schema.prisma"), SCHEMA.replace("  name String\n", "  name String\n  age  Int?\n"));
      const shadowsBefore = await shadowDatabases();

      const dev = await runPrisma(dir, url, ["migrate", "dev", "--name", "add_age"]);

      expect(dev.code, dev.output).toBe(0);
      expect(dev.output).toContain("add_age");
      expect(await query(url, `SELECT migration_name FROM _prisma_migrations ORDER BY migration_name`)).toEqual([
        { migration_name: "20240101000000_init" },
        { migration_name: expect.stringMatching(/^\d{14}_add_age$/) },
      ]);
      expect(await query(url, `SELECT column_name FROM information_schema.columns WHERE table_name = 'Pet' AND column_name = 'age'`)).toHaveLength(1);
      // Other processes may be running `migrate dev` on the same server: only
      // a shadow database that appeared during this test and stays is a leak.
      await expect
        .poll(async () => (await shadowDatabases()).filter((name) => !shadowsBefore.includes(name)), {
          timeout: 5_000,
        })
        .toEqual([]);
    },
    TIMEOUT,
  );
});

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

type PrismaRun = { code: number; stdout: string; stderr: string; output: string };

/** Runs the real prisma CLI in `dir`, with DATABASE_URL set to `databaseUrl`. */
function runPrisma(dir: string, databaseUrl: string, args: string[]): Promise<PrismaRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    // Offline: no update check, no colours in the captured output.
    CHECKPOINT_DISABLE: "1",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
  };
  // The project's prisma.config.ts must be what selects the shim.
  delete env.PRISMA_SCHEMA_ENGINE_BINARY;
  delete env.SHADOW_DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [PRISMA_CLI, ...args], { cwd: dir, env, timeout: TIMEOUT }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr, output: `${stdout}\n${stderr}` });
    });
  });
}

/** A throw-away project: prisma.config.ts (pointing at the shim), schema, migrations. */
async function createProject(migrations: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "schema-engine-shim-"));
  projectDirs.push(dir);
  // So that prisma.config.ts can import "prisma/config".
  await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  await writeFile(
    path.join(dir, "prisma.config.ts"),
    `import { defineConfig } from "prisma/config";

process.env.PRISMA_SCHEMA_ENGINE_BINARY = ${JSON.stringify(SHIM)};

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL },
});
`,
  );
  const migrationsDir = path.join(dir, "prisma", "migrations");
  await mkdir(migrationsDir, { recursive: true });
  await writeFile(path.join(dir, "prisma", "schema.prisma"), SCHEMA);
  await writeFile(path.join(migrationsDir, "migration_lock.toml"), `provider = "postgresql"\n`);
  for (const [name, sql] of Object.entries(migrations)) {
    await mkdir(path.join(migrationsDir, name));
    await writeFile(path.join(migrationsDir, name, "migration.sql"), sql);
  }
  return dir;
}

/** Creates an empty database on the test server; dropped in afterAll. */
async function createScratchDatabase(): Promise<string> {
  const name = `shim_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  scratchDatabases.push(name);
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE ${quoteIdent(name)}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function shadowDatabases(): Promise<string[]> {
  const rows = await query(SERVER_URL, `SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'`);
  return rows.map((row) => String(row.datname));
}

async function tableExists(url: string, table: string): Promise<boolean> {
  const [row] = await query(url, `SELECT to_regclass($1) IS NOT NULL AS exists`, [quoteIdent(table)]);
  return row?.exists === true;
}

async function query(url: string, sql: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  return withClient(url, async (client) => (await client.query(sql, values)).rows);
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
