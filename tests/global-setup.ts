/**
 * Vitest global setup: a database of its own for this run, created and
 * migrated once, then dropped. Tests get its URL through inject("databaseUrl").
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { migrateJobQueue } from "../scripts/launch";
import type { TestProject } from "vitest/node";
import {
  ROOT,
  assertLocalDatabase,
  createDatabaseIfMissing,
  dropDatabase,
  withDatabaseName,
} from "../scripts/database";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) throw new Error("TEST_DATABASE_URL is unset: run the tests through `npm run test:unit`.");
  assertLocalDatabase(server);
  const url = withDatabaseName(server, `petstore_test_${process.pid}`);
  await dropDatabase(url);
  await createDatabaseIfMissing(url);
  const migrate = spawnSync(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (migrate.status !== 0) throw new Error(`prisma migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);
  // The job queue's own schema, as `db migrate` installs it (scripts/launch.ts).
  await migrateJobQueue(url);
  project.provide("databaseUrl", url);
  return async () => {
    await dropDatabase(url);
  };
}
