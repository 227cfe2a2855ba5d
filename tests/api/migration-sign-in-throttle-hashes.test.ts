import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, sqlOf } from "@/tests/migrations";

// Migration 20261125200100_sign_in_throttle_hashes on a database that has
// counted failed sign-ins the old way: rows naming an account kept its email
// in plain text (and its unkeyed hash in the key). SQL cannot compute the
// new keyed hash (its key is derived from SESSION_SECRET, which the database
// never sees), so those rows go, and the column with them; the rows of
// addresses, which name no one, stay, lock-outs included.

const UPGRADE = "20261125200100_sign_in_throttle_hashes";
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ client, drop } = await databaseBefore(UPGRADE, "upgrade_throttle"));
});

afterAll(async () => {
  await drop?.();
});

describe(`migration ${UPGRADE}`, () => {
  it("drops the rows and the column that held emails, and keeps the addresses' counts and lock-outs", async () => {
    const later = new Date(Date.now() + 3_600_000);
    await client.query(
      `INSERT INTO sign_in_throttles (key, email, address, attempts, window_start, window_seconds, locked_until, lockouts)
       VALUES ('account:0123456789abcdef0123456789abcdef@ip:203.0.113.5', 'staff@shelter.example', 'ip:203.0.113.5', 0, now(), 900, $1, 1),
              ('address:ip:203.0.113.5', NULL, 'ip:203.0.113.5', 100, now(), 3600, $1, 1)`,
      [later],
    );
    await client.query(sqlOf(UPGRADE));
    const { rows } = await client.query<Record<string, unknown>>(`SELECT * FROM sign_in_throttles`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: "address:ip:203.0.113.5", address: "ip:203.0.113.5", attempts: 100, account: null, lockouts: 1 });
    expect(rows[0]!.locked_until).toEqual(later);
    expect(JSON.stringify(rows)).not.toContain("staff@shelter.example");
    const { rows: columns } = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'sign_in_throttles'`,
    );
    expect(columns.map((c) => c.column_name)).not.toContain("email");
  });
});
