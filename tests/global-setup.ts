/**
 * Vitest global setup: databases of this run's own, one per worker, created
 * and migrated once, then dropped. Each test file gets its worker's URL
 * through inject("databaseUrls") (tests/setup.ts).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { migrateJobQueue } from "../scripts/launch";
import type { TestProject } from "vitest/node";
import { ROOT, assertLocalDatabase, copyDatabase, createDatabaseIfMissing, dropDatabase, withAdminClient, withDatabaseName } from "../scripts/database";

declare module "vitest" {
  export interface ProvidedContext {
    /** One migrated database per worker: the first for VITEST_POOL_ID 1, and so on. */
    databaseUrls: string[];
  }
}

/** How many files run at once (maxWorkers, a number here: vitest.config.ts sets it). */
function workerCount(project: TestProject): number {
  const max = project.globalConfig.maxWorkers;
  return typeof max === "number" && max > 0 ? max : 1;
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
  // Test files run side by side, one worker each; every worker gets a copy of
  // the migrated database (a template copy takes a moment, a migration
  // seconds), so files on different workers never see each other's rows.
  const workers = workerCount(project);
  const urls = [url];
  for (let worker = 2; worker <= workers; worker++) {
    const copy = withDatabaseName(server, `petstore_test_${process.pid}_${worker}`);
    await dropDatabase(copy);
    await copyDatabase(url, copy);
    // Its own deployment namespace (lib/rate-limit/shared-store.ts makes one
    // when the row is missing), so its Redis counters are its own too.
    await withAdminClient(copy, (c) => c.query("DELETE FROM deployment"));
    urls.push(copy);
  }
  project.provide("databaseUrls", urls);
  return async () => {
    for (const u of urls) await dropDatabase(u);
  };
}
