import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { ROOT, createDatabaseIfMissing, dropDatabase, withDatabaseName } from "@/scripts/database";

// For tests of one migration on data written before it: a database of its
// own, migrated up to (not including) that migration, and the migration's SQL.

const migrations = fs
  .readdirSync(path.join(ROOT, "prisma", "migrations"))
  .filter((name) => /^\d+_/.test(name))
  .sort();

export const sqlOf = (name: string) => fs.readFileSync(path.join(ROOT, "prisma", "migrations", name, "migration.sql"), "utf8");

/** A fresh database named after `label`, with every migration before `upgrade` applied; drop() removes it. */
export async function databaseBefore(upgrade: string, label: string): Promise<{ client: pg.Client; drop: () => Promise<void> }> {
  if (!migrations.includes(upgrade)) throw new Error(`no migration ${upgrade}`);
  const url = withDatabaseName(inject("databaseUrls")[0]!, `petstore_${label}_${process.pid}`);
  await dropDatabase(url);
  await createDatabaseIfMissing(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const name of migrations.slice(0, migrations.indexOf(upgrade))) await client.query(sqlOf(name));
  return {
    client,
    drop: async () => {
      await client.end();
      await dropDatabase(url);
    },
  };
}
