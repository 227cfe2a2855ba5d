import { idempotentNewPet, newPetSchema, type NewPet } from "@/lib/pets/schemas/pet";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PATCH } from "@/app/v1/pets/[petId]/route";
import { POST } from "@/app/v1/pets/route";
import { flushBackground } from "@/lib/background";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { fingerprint } from "@/lib/idempotency/service";
import * as petQueries from "@/lib/pets/queries/writes";
import type { Pet } from "@/lib/pets/schemas/pet";
import { until } from "@/tests/wait";
import { call, expectApiError, expectJson, newKey, staffSession, type CallOptions, type StaffSession } from "./helpers";

// Idempotency-Key on POST /v1/pets: a retried create answers the first
// response again instead of adding a second animal.

let key: string;
let keyId: number;
let otherKey: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key, id: keyId } = await newKey(["pets:read", "pets:write"], "partner"));
  ({ key: otherKey } = await newKey(["pets:read", "pets:write"], "another partner"));
  staff = await staffSession();
});

afterEach(() => {
  vi.restoreAllMocks();
  setClock();
});

function create(json: unknown, idempotencyKey: string | undefined, options: CallOptions = {}) {
  const headers = { ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }), ...options.headers };
  return call(POST, "/v1/pets", { method: "POST", key, json, ...options, headers });
}

const countNamed = (name: string) => db().pet.count({ where: { name } });
const uniqueName = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

describe("POST /v1/pets with Idempotency-Key", () => {
  it("the same key and body again: the original status, body, Location and ETag, with Idempotent-Replayed: true, and one animal", async () => {
    const name = uniqueName("Replay");
    const idem = randomUUID();
    const first = await create({ name, categoryId: 2 }, idem);
    const pet = await expectJson<Pet>(first, 201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();

    const again = await create({ name, categoryId: 2 }, idem);
    expect(await expectJson<Pet>(again, 201)).toEqual(pet);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await countNamed(name)).toBe(1);
  });

  it("'the same body' is the same parsed body: key order, spacing around the name and a defaulted status do not matter", async () => {
    const name = uniqueName("Canonical");
    const idem = randomUUID();
    await expectJson(await create({ name, categoryId: 1 }, idem), 201);
    const body = JSON.stringify({ status: "available", categoryId: 1, name: `  ${name} ` });
    const res = await call(POST, "/v1/pets", { method: "POST", key, body, headers: { "content-type": "application/json", "idempotency-key": idem } });
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBe("true");
    expect(await countNamed(name)).toBe(1);
  });

  it("the same key with another body → 422 idempotency_key_reused, no second animal", async () => {
    const name = uniqueName("Reused");
    const idem = randomUUID();
    await expectJson(await create({ name, categoryId: 1 }, idem), 201);
    const body = await expectApiError(await create({ name: `${name} 2`, categoryId: 1 }, idem), 422, "idempotency_key_reused");
    expect(body.details?.map((d) => d.field)).toEqual(["Idempotency-Key"]);
    expect(await countNamed(`${name} 2`)).toBe(0);
  });

  it("replays the response as it was, even after the animal has changed", async () => {
    const name = uniqueName("Then changed");
    const idem = randomUUID();
    const pet = await expectJson<Pet>(await create({ name, categoryId: 1 }, idem), 201);
    await expectJson(await call(PATCH, `/v1/pets/${pet.id}`, { method: "PATCH", key, json: { status: "sold" }, params: { petId: String(pet.id) } }));
    expect(await expectJson<Pet>(await create({ name, categoryId: 1 }, idem), 201)).toEqual(pet);
  });

  it("keys are per caller: another API key, or staff, with the same key create their own animal", async () => {
    const name = uniqueName("Per caller");
    const idem = randomUUID();
    const mine = await expectJson<Pet>(await create({ name, categoryId: 1 }, idem), 201);
    const theirs = await create({ name, categoryId: 1 }, idem, { key: otherKey });
    expect((await expectJson<Pet>(theirs, 201)).id).not.toBe(mine.id);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    const staffs = await create({ name, categoryId: 1 }, idem, { key: undefined, headers: staff.headers });
    expect(staffs.headers.get("idempotent-replayed")).toBeNull();
    expect(await countNamed(name)).toBe(3);
    // A staff member's key is theirs in every session (the same account, not the same cookie).
    const again = await create({ name, categoryId: 1 }, idem, { key: undefined, headers: (await sessionOf(staff)).headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a key is kept 24 hours: replayed just before, a new animal just after", async () => {
    const name = uniqueName("Expiry");
    const idem = randomUUID();
    const start = new Date("2027-05-01T08:00:00Z");
    setClock(start);
    await expectJson(await create({ name, categoryId: 1 }, idem), 201);
    setClock(new Date(start.getTime() + 24 * 3600_000 - 1));
    expect((await create({ name, categoryId: 1 }, idem)).headers.get("idempotent-replayed")).toBe("true");
    setClock(new Date(start.getTime() + 24 * 3600_000));
    const later = await create({ name, categoryId: 1 }, idem);
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(await countNamed(name)).toBe(2);
  });

  it("expired keys are swept in passing", async () => {
    setClock(new Date("2027-06-01T00:00:00Z"));
    await expectJson(await create({ name: uniqueName("Old"), categoryId: 1 }, "old-key"), 201);
    setClock(new Date("2027-06-03T00:00:00Z"));
    vi.spyOn(Math, "random").mockReturnValue(0); // the one-in-a-hundred sweep, now
    await expectJson(await create({ name: uniqueName("New"), categoryId: 1 }, randomUUID()), 201);
    await flushBackground();
    expect(await db().idempotencyKey.count({ where: { key: "old-key" } })).toBe(0);
  });

  it("without the header every POST creates an animal (as before)", async () => {
    const name = uniqueName("No key");
    await expectJson(await create({ name, categoryId: 1 }, undefined), 201);
    await expectJson(await create({ name, categoryId: 1 }, undefined), 201);
    expect(await countNamed(name)).toBe(2);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["a non-ASCII character", "cl\u00e9"],
    ["a control character", "a\tb"],
  ])("an Idempotency-Key that is %s → 400 invalid_header, nothing created", async (_label, idem) => {
    const name = uniqueName("Bad key");
    const body = await expectApiError(await create({ name, categoryId: 1 }, idem), 400, "invalid_header");
    expect(body.details?.map((d) => d.field)).toEqual(["Idempotency-Key"]);
    expect(await countNamed(name)).toBe(0);
  });

  it("255 printable characters, spaces inside included, are a valid key", async () => {
    const idem = `a b${"~".repeat(252)}`;
    expect(idem).toHaveLength(255);
    expect((await create({ name: uniqueName("Long key"), categoryId: 1 }, idem)).status).toBe(201);
  });
});

describe("a create that fails leaves no reservation behind", () => {
  it("after a 500 the same key and body succeed on retry", async () => {
    const name = uniqueName("Retry after failure");
    const idem = randomUUID();
    vi.spyOn(petQueries, "createPetWithRecords").mockRejectedValueOnce(new Error("disk on fire"));
    await expectApiError(await create({ name, categoryId: 1 }, idem), 500, "internal_error");
    const retry = await create({ name, categoryId: 1 }, idem);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await countNamed(name)).toBe(1);
  });

  it("after a 400 unknown_category the key is free for the corrected body", async () => {
    const name = uniqueName("Corrected");
    const idem = randomUUID();
    await expectApiError(await create({ name, categoryId: 999 }, idem), 400, "unknown_category");
    expect((await create({ name, categoryId: 1 }, idem)).status).toBe(201);
    expect(await countNamed(name)).toBe(1);
  });
});

describe("concurrent duplicates", () => {
  it("20 parallel requests with one key: exactly one animal, one 201 that created it, the rest replays or 409", async () => {
    const name = uniqueName("Race");
    const idem = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => create({ name, categoryId: 3 }, idem)));
    expect(await countNamed(name)).toBe(1);
    const created = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    const replayed = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === "true");
    const busy = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(replayed.length + busy.length).toBe(19);
    const pet = await expectJson<Pet>(created[0]!, 201);
    for (const r of replayed) expect(await expectJson<Pet>(r, 201)).toEqual(pet);
    for (const r of busy) await expectApiError(r, 409, "idempotency_in_progress");
  });

  describe("while another request holds the key", () => {
    let holder: pg.Client;
    const caller = () => `key:${keyId}`;

    /** Another transaction that has reserved the key and not committed yet: a request in flight. */
    async function holdKey(idem: string, body: Partial<NewPet>, response?: unknown) {
      holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query(
        `INSERT INTO idempotency_keys (caller, key, request_hash, response_status, response_body, response_headers, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() + interval '1 day')`,
        [caller(), idem, fingerprint("createPet", body), response ? 201 : null, response ? JSON.stringify(response) : null, response ? "{}" : null],
      );
    }

    afterEach(async () => {
      await holder?.end().catch(() => {});
    });

    it("a key stored before the listing-site fields existed still replays the same request (their defaults are not part of it)", async () => {
      const name = uniqueName("Before the deploy");
      const idem = randomUUID();
      const stored = { id: 434343, name, categoryId: 1, status: "available", version: 1 };
      // The body as a create was parsed before issue 34 added its fields.
      await holdKey(
        idem,
        { name, categoryId: 1, status: "available", sex: "unknown", size: null, birthDate: null, breed: null, description: null, goodWith: {} },
        stored,
      );
      await holder.query("COMMIT");
      const res = await create({ name, categoryId: 1 }, idem);
      expect(await expectJson(res, 201)).toEqual(stored);
      expect(res.headers.get("idempotent-replayed")).toBe("true");
      // Sending one of the new fields is another request.
      await expectApiError(await create({ name, categoryId: 1, houseTrained: true }, idem), 422, "idempotency_key_reused");
    });

    it("a duplicate waits for it, then replays what it stored", async () => {
      const name = uniqueName("Waited for");
      const idem = randomUUID();
      const stored = { id: 424242, name, categoryId: 1, status: "available", version: 1 };
      await holdKey(idem, idempotentNewPet(newPetSchema.parse({ name, categoryId: 1 })), stored);
      const pending = create({ name, categoryId: 1 }, idem);
      await until("the duplicate to wait on the held key", async () => {
        const [row] = await db().$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%idempotency_keys%'`;
        return row!.n > 0;
      });
      await holder.query("COMMIT");
      const res = await pending;
      expect(await expectJson(res, 201)).toEqual(stored);
      expect(res.headers.get("idempotent-replayed")).toBe("true");
      expect(await countNamed(name)).toBe(0); // the holder "created" it (in this test, only its response)
    });

    it("a duplicate that waits too long gets 409 idempotency_in_progress with Retry-After; once the holder fails, a retry creates it", async () => {
      const name = uniqueName("Too long");
      const idem = randomUUID();
      await holdKey(idem, idempotentNewPet(newPetSchema.parse({ name, categoryId: 1 })));
      const started = Date.now();
      const res = await create({ name, categoryId: 1 }, idem);
      await expectApiError(res, 409, "idempotency_in_progress");
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
      expect(await countNamed(name)).toBe(0);

      await holder.query("ROLLBACK");
      const retry = await create({ name, categoryId: 1 }, idem);
      expect(retry.status).toBe(201);
      expect(await countNamed(name)).toBe(1);
    });
  });
});

/** Another browser session of the same staff account. */
async function sessionOf(session: StaffSession): Promise<StaffSession> {
  const { createStaffSession } = await import("@/lib/sessions/service");
  const { sessionCookieName } = await import("@/lib/core/cookies");
  const { token } = await createStaffSession(BigInt(session.staffId), new Date());
  return { ...session, headers: { ...session.headers, cookie: `${sessionCookieName()}=${token}` } };
}
