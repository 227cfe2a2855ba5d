import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, sqlOf } from "@/tests/migrations";

// Issue 40's migration on imports stored before it: each import's report
// (the JSON array) becomes its rows in import_issues, in order, each message
// cut to 300 characters; and where an organisation had several imports
// queued or running, the oldest keeps its place and the others stop, saying
// why, so that one active import per organisation can be an index.

const MIGRATION = "20261201200000_import_reports";
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ client, drop } = await databaseBefore(MIGRATION, "upgrade_import_reports"));
});

afterAll(async () => {
  await drop?.();
});

async function insertImport(organizationId: number, status: string, errors: object[]): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO imports (organization_id, format, encoding, file, dry_run, missing, status, counts, photos, errors, actor_kind, actor_id)
     VALUES ($1, 'petfinder', 'utf-8', $2, false, 'keep', $3::"ImportStatus", '{"rows":1}', '{"queued":0,"stored":0,"failed":0}', $4::jsonb, 'api_key', 1) RETURNING id`,
    [organizationId, status === "queued" || status === "running" ? Buffer.from("ID\n1\n") : null, status, JSON.stringify(errors)],
  );
  return Number(rows[0]!.id);
}

describe(`migration ${MIGRATION}`, () => {
  it("moves every report into import_issues in order (long messages cut), and stops all but the oldest of an organisation's waiting imports", async () => {
    const { rows: orgs } = await client.query<{ id: string }>(
      "INSERT INTO organizations (name, slug) VALUES ('Before', 'before-reports'), ('Other', 'other-reports') RETURNING id",
    );
    const [org, other] = orgs.map((o) => Number(o.id));
    const done = await insertImport(org!, "done", [
      { line: 2, field: "Type", message: '"Horse" is not a species' },
      { line: 3, field: null, message: `"${"\u0007".repeat(5_000)}" is not a name` },
    ]);
    const running = await insertImport(org!, "running", []);
    const queued = await insertImport(org!, "queued", [{ line: 4, field: "Sex", message: "nope" }]);
    const otherQueued = await insertImport(other!, "queued", []);

    await client.query(sqlOf(MIGRATION));

    const { rows: issues } = await client.query<{ import_id: string; line: number; field: string | null; message: string }>(
      "SELECT import_id, line, field, message FROM import_issues ORDER BY id",
    );
    expect(issues.map((i) => [Number(i.import_id), i.line, i.field, i.message.length])).toEqual([
      [done, 2, "Type", 24],
      [done, 3, null, 300],
      [queued, 4, "Sex", 4],
      [queued, 0, null, 93],
    ]);
    expect(issues.at(-1)!.message).toBe("Stopped by an upgrade that runs one import of an organisation at a time: send the file again.");
    const { rows: imports } = await client.query<{ id: string; status: string; issue_count: number; has_file: boolean }>(
      "SELECT id, status, issue_count, file IS NOT NULL AS has_file FROM imports ORDER BY id",
    );
    expect(imports.map((i) => [Number(i.id), i.status, i.issue_count, i.has_file])).toEqual([
      [done, "done", 2, false],
      [running, "running", 0, true],
      [queued, "failed", 2, false],
      [otherQueued, "queued", 0, true],
    ]);
    // From now on, the database holds one active import per organisation.
    await expect(
      client.query(
        `INSERT INTO imports (organization_id, format, encoding, dry_run, missing, counts, photos, actor_kind, actor_id)
                    VALUES ($1, 'generic', 'utf-8', true, 'keep', '{}', '{}', 'api_key', 1)`,
        [org],
      ),
    ).rejects.toThrow(/imports_one_active_per_organization/);
  });
});
