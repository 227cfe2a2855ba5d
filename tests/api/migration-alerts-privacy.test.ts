import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboxOf } from "@/lib/mail/inbox";
import { databaseBefore, sqlOf } from "@/tests/migrations";

// Issue 32's migrations on alerts stored before them: a `near` point is
// rounded to 2 decimals as new alerts are (a ZIP code stays), and every
// alert gets the inbox its address reaches, computed as the app computes it
// (lib/mail/inbox.ts), so the cap per address counts the old alerts too.

const COARSE = "20261127100000_alerts_coarse_near";
const INBOX = "20261127100100_alerts_inbox";
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ client, drop } = await databaseBefore(COARSE, "upgrade_alerts_privacy"));
});

afterAll(async () => {
  await drop?.();
});

const ADDRESSES = [
  "victim@gmail.com",
  "v.ictim+alerts@gmail.com",
  "vic.tim@googlemail.com",
  "sam+shelters@example.org",
  "s.am@example.org",
  "+only@example.org",
  "...@gmail.com",
  "x@y@example.org",
];

async function insert(email: string, filters: object, near: [number, number] | null): Promise<void> {
  await client.query(
    `INSERT INTO alerts (email, token_hash, sealed_token, frequency, filters, near_lat, near_lng, within_chord, consent_at)
     VALUES ($1::text, lpad(md5($1::text), 43, 'x'), 'sealed', 'hourly', $2::jsonb, $3, $4, $5, now())`,
    [email, JSON.stringify(filters), near?.[0] ?? null, near?.[1] ?? null, near ? 40_000 : null],
  );
}

describe(`migrations ${COARSE} and ${INBOX}`, () => {
  it("round stored points to 2 decimals (ZIP codes stay), then give every alert its inbox as the app computes it", async () => {
    await insert("point@example.org", { categoryId: 1, near: "42.045123,-87.687789", within: "5km" }, [42.045123, -87.687789]);
    await insert("round@example.org", { near: "41.8,-87.004", within: "5km" }, [41.8, -87.004]);
    await insert("zip@example.org", { near: "60601", within: "25mi" }, [41.8858, -87.6181]);
    for (const email of ADDRESSES) await insert(email, {}, null);

    await client.query(sqlOf(COARSE));
    const { rows: places } = await client.query<{ email: string; near: string | null; near_lat: number | null; near_lng: number | null }>(
      "SELECT email, filters ->> 'near' AS near, near_lat, near_lng FROM alerts WHERE near_lat IS NOT NULL ORDER BY id",
    );
    expect(places).toEqual([
      { email: "point@example.org", near: "42.05,-87.69", near_lat: 42.05, near_lng: -87.69 },
      { email: "round@example.org", near: "41.8,-87", near_lat: 41.8, near_lng: -87 },
      { email: "zip@example.org", near: "60601", near_lat: 41.8858, near_lng: -87.6181 },
    ]);

    await client.query(sqlOf(INBOX));
    const { rows } = await client.query<{ email: string; inbox: string }>("SELECT email, inbox FROM alerts ORDER BY id");
    for (const { email, inbox } of rows) expect(inbox, email).toBe(inboxOf(email));
    expect(new Set(rows.filter((r) => r.email.includes("gmail")).map((r) => r.inbox)).size).toBe(2);
  });
});
