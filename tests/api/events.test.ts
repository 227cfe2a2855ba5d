import { newPetSchema } from "@/lib/pets/schemas/pet";
import { petView } from "@/lib/pets/present";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as feedRoute, POST as feedPost } from "@/app/v1/events/route";
import { PATCH as patchRoute } from "@/app/v1/pets/[petId]/route";
import { POST as createRoute } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { resetEnvCache } from "@/lib/env";
import type { PetChangeEvent as PetEvent } from "@/lib/events/schemas";
import { sweepEvents } from "@/lib/events/service";
import type { Pet } from "@/lib/pets/schemas/pet";
import { until } from "@/tests/wait";
import { call, createPet, expectApiError, expectJson, newKey, parseLink, staffSession, type StaffSession } from "./helpers";

// GET /v1/events - the change feed: one event per create and update, written
// in the transaction of the change, read in commit order by passing back the
// last id seen.

// Room for the 20 concurrent writers' transactions at once (the pool is made on first use).
vi.stubEnv("DATABASE_POOL_SIZE", "30");
resetEnvCache();
afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

let key: string;
let writeOnlyKey: string;
let recordsKey: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "feed reader"));
  ({ key: writeOnlyKey } = await newKey(["pets:write"], "writer without read"));
  ({ key: recordsKey } = await newKey(["pets:read", "records:read"], "the shelter's records"));
  staff = await staffSession();
});

const create = (body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Pet> => createPet(body, { key, headers });

async function patch(id: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call(patchRoute, `/v1/pets/${id}`, { method: "PATCH", key, json: body, params: { petId: String(id) }, headers });
}

async function feed(query = "", as = key): Promise<{ events: PetEvent[]; res: Response }> {
  const res = await call(feedRoute, `/v1/events${query}`, { key: as });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return { events: JSON.parse(text) as PetEvent[], res };
}

/** Every event after `after`, following Link rel="next" to the end. */
async function readAll(after?: string, as = key): Promise<PetEvent[]> {
  const all: PetEvent[] = [];
  let url: string | undefined = `/v1/events?limit=100${after ? `&after=${after}` : ""}`;
  while (url) {
    const { events, res } = await feed(url.replace(/^https?:\/\/[^/]+\/v1\/events/, ""), as);
    all.push(...events);
    url = parseLink(res.headers.get("link")).next;
  }
  return all;
}

async function lastId(): Promise<string | undefined> {
  return (await readAll()).at(-1)?.id;
}

describe("events are written with the change", () => {
  it("a create writes pet.created: the animal with its version, no previous, nobody named", async () => {
    const since = await lastId();
    const pet = await create({ name: "Biscuit", categoryId: 1 });
    const events = await readAll(since);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[1-9][0-9]*$/),
      type: "pet.created",
      organizationId: 1,
      createdAt: expect.any(String),
      data: { pet },
    });
    expect(pet.version).toBe(1);
    expect(new Date(event!.createdAt).toISOString()).toBe(event!.createdAt);
  });

  it("an update writes pet.updated: the animal after the change and the old values of the changed fields only", async () => {
    const pet = await create({ name: "Rex", categoryId: 1, status: "available" });
    const since = await lastId();
    const res = await patch(pet.id, { status: "sold", name: "Rex" });
    const updated = await expectJson<Pet>(res);
    const events = await readAll(since);
    // A sale also ends the animal's stay with its adoption (lib/stays): announced at the same version, to
    // readers of the organisation's records; a key without records:read is told the change, not the record.
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: "pet.updated",
        organizationId: 1,
        createdAt: expect.any(String),
        data: { pet: updated, previous: { status: "available" } },
      },
    ]);
    const stay = { id: expect.any(Number), intake: expect.objectContaining({ type: "otherIntake" }), outcome: expect.objectContaining({ type: "adoption" }) };
    expect(await readAll(since, recordsKey)).toEqual([
      {
        id: expect.any(String),
        type: "pet.updated",
        organizationId: 1,
        createdAt: expect.any(String),
        data: { pet: updated, previous: { status: "available" }, stay },
      },
      { id: expect.any(String), type: "pet.stay.ended", organizationId: 1, createdAt: expect.any(String), data: { pet: updated, previous: {}, stay } },
    ]);
    expect(events[0]!.data.pet.version).toBe(2);
    expect(res.headers.get("etag")).toBe(`"${events[0]!.data.pet.version}"`);
  });

  it("staff changes are announced the same way and never say who made them", async () => {
    const since = await lastId();
    const res = await call(createRoute, "/v1/pets", { method: "POST", headers: staff.headers, json: { name: "Staff pick", categoryId: 2 } });
    await expectJson(res, 201);
    const [event] = await readAll(since);
    const text = JSON.stringify(event);
    expect(text).not.toContain(staff.email);
    expect(text).not.toMatch(/actor|requestId|"by"/);
    expect(Object.keys(event!.data).sort()).toEqual(["pet"]);
  });

  it("nothing is announced for a change that did not happen: no-op patch, 412, unknown category, a rolled-back create", async () => {
    const pet = await create({ name: "Quiet", categoryId: 1 });
    const since = await lastId();
    await expectJson(await patch(pet.id, { status: "available" }));
    await expectApiError(await patch(pet.id, { status: "sold" }, { "if-match": '"7"' }), 412, "precondition_failed");
    await expectApiError(await call(createRoute, "/v1/pets", { method: "POST", key, json: { name: "Nope", categoryId: 999 } }), 400, "unknown_category");
    // A create whose transaction fails after the animal and its event were
    // written (the idempotency record of a body that is refused later is the
    // same transaction): nothing may leak out of it.
    const before = await db().event.count();
    await expect(
      db().$transaction(async (tx) => {
        const { createPet } = await import("@/lib/pets/service");
        await createPet(
          newPetSchema.parse({ name: "Ghost", categoryId: 1 }),
          { actor: { kind: "staff", id: staff.staffId, email: staff.email }, requestId: "t", tenancy: { kind: "organization", organizationId: 1 } },
          petView(new Date()),
          tx,
        );
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await db().event.count()).toBe(before);
    expect(await readAll(since)).toEqual([]);
  });

  it("an idempotent replay announces nothing new", async () => {
    const since = await lastId();
    const headers = { "idempotency-key": "feed-replay-1" };
    const first = await create({ name: "Once", categoryId: 1 }, headers);
    const again = await create({ name: "Once", categoryId: 1 }, headers);
    expect(again).toEqual(first);
    expect((await readAll(since)).map((e) => e.data.pet.id)).toEqual([first.id]);
  });
});

describe("reading the feed", () => {
  let ids: string[];
  let first: PetEvent[];

  beforeAll(async () => {
    const since = await lastId();
    for (let i = 0; i < 5; i++) {
      const pet = await create({ name: `Paged ${i}`, categoryId: 1 });
      await expectJson(await patch(pet.id, { status: "pending" }));
    }
    first = await readAll(since);
    ids = first.map((e) => e.id);
    expect(ids).toHaveLength(10);
  });

  it("oldest first, ids increasing; without `after` it starts at the oldest event kept", async () => {
    const numbers = (await readAll()).map((e) => Number(e.id.slice(4)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    const { events } = await feed("?limit=1");
    expect(events[0]!.id).toBe(`evt_${numbers[0]}`);
  });

  it('pages with `limit` (default 20) and Link rel="next" while more are waiting, carrying limit and type', async () => {
    const start = `evt_${Number(ids[0]!.slice(4)) - 1}`;
    const page1 = await feed(`?after=${start}&limit=4`);
    expect(page1.events.map((e) => e.id)).toEqual(ids.slice(0, 4));
    const next = parseLink(page1.res.headers.get("link")).next!;
    expect(next).toBe(`http://localhost/v1/events?after=${ids[3]}&limit=4`);
    const page2 = await feed(new URL(next).search);
    expect(page2.events.map((e) => e.id)).toEqual(ids.slice(4, 8));

    const last = await feed(`?after=${ids[9]}`);
    expect(last.events).toEqual([]);
    expect(last.res.headers.get("link")).toBeNull();
    const exact = await feed(`?after=${ids[5]}&limit=4`);
    expect(exact.events.map((e) => e.id)).toEqual(ids.slice(6, 10));
    expect(exact.res.headers.get("link")).toBeNull();

    const all = await feed("");
    expect(all.events.length).toBeLessThanOrEqual(20);
  });

  it("filters by type; the cursor is still the event id", async () => {
    const start = `evt_${Number(ids[0]!.slice(4)) - 1}`;
    const updates = await feed(`?after=${start}&type=pet.updated&limit=2`);
    expect(updates.events.map((e) => e.type)).toEqual(["pet.updated", "pet.updated"]);
    expect(updates.events.map((e) => e.id)).toEqual([ids[1], ids[3]]);
    expect(parseLink(updates.res.headers.get("link")).next).toBe(`http://localhost/v1/events?after=${ids[3]}&type=pet.updated&limit=2`);
  });

  it("carries the rate-limit and request-id headers like every answer", async () => {
    const { res } = await feed("?limit=1");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it.each([
    ["?after=42", "invalid_query"],
    ["?after=evt_0", "invalid_query"],
    ["?after=evt_abc", "invalid_query"],
    ["?limit=0", "invalid_query"],
    ["?limit=101", "invalid_query"],
    ["?limit=ten", "invalid_query"],
    ["?type=pet.deleted", "invalid_query"],
    ["?after=evt_1&after=evt_2", "invalid_query"],
    ["?after=evt_999999999", "invalid_cursor"],
  ])("GET /v1/events%s is 400 %s", async (query, code) => {
    await expectApiError(await call(feedRoute, `/v1/events${query}`, { key }), 400, code);
  });

  it("needs pets:read: 401 without a key, 403 for a key without the scope; 405 for other methods", async () => {
    await expectApiError(await call(feedRoute, "/v1/events"), 401, "unauthorized");
    await expectApiError(await call(feedRoute, "/v1/events", { key: writeOnlyKey }), 403, "forbidden");
    await expectApiError(await call(feedPost, "/v1/events", { method: "POST", key, json: {} }), 405, "method_not_allowed");
  });
});

describe("retention", () => {
  it("events older than 30 days are swept; a cursor from before then is 410 cursor_expired, later ones read on", async () => {
    const since = await lastId();
    const pets = [];
    for (let i = 0; i < 4; i++) pets.push(await create({ name: `Old ${i}`, categoryId: 3 }));
    const events = await readAll(since);
    expect(events).toHaveLength(4);
    const positions = events.map((e) => BigInt(e.id.slice(4)));
    // The first three committed 31 days ago.
    await db().event.updateMany({ where: { position: { lte: positions[2]! } }, data: { createdAt: new Date(Date.now() - 31 * 86_400_000) } });

    expect(await sweepEvents(new Date())).toBeGreaterThanOrEqual(3);
    const body = await expectApiError(await call(feedRoute, `/v1/events?after=${events[0]!.id}`, { key }), 410, "cursor_expired");
    expect(body.message).toContain("30 days");
    if (since) await expectApiError(await call(feedRoute, `/v1/events?after=${since}`, { key }), 410, "cursor_expired");
    // The last swept id is a cursor that lost nothing: it reads on.
    expect((await readAll(events[2]!.id)).map((e) => e.id)).toEqual([events[3]!.id]);
    // Without `after`: the oldest event kept.
    expect((await feed("?limit=1")).events[0]!.id).toBe(events[3]!.id);
    // Sweeping again finds nothing more.
    expect(await sweepEvents(new Date())).toBe(0);
  });
});

describe("order under concurrent writers", () => {
  it("a commit that takes long holds back the ones behind it: the feed never shows a later event while an earlier one is still committing", async () => {
    // A second commit-time trigger, after the one that writes the event and
    // takes its position, keeps the "Sleepy" commit going for two seconds
    // (ample: the test waits for each commit to be where it says, not for a time).
    await db().$executeRawUnsafe(`
      CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.after->>'name' = 'Sleepy' THEN PERFORM pg_sleep(2); END IF; RETURN NULL; END $$`);
    await db().$executeRawUnsafe(
      "CREATE CONSTRAINT TRIGGER zz_slow_commit AFTER INSERT ON pet_audit DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()",
    );
    try {
      const { createPet } = await import("@/lib/pets/service");
      const context = {
        actor: { kind: "staff" as const, id: staff.staffId, email: staff.email },
        requestId: "slow-commit",
        tenancy: { kind: "organization" as const, organizationId: 1 },
      };
      // Each in a transaction of its own (creates of the same moment would otherwise share one).
      const write = (name: string) => db().$transaction((tx) => createPet(newPetSchema.parse({ name, categoryId: 1 }), context, petView(new Date()), tx));
      const since = await lastId();
      const waiting = (condition: Prisma.Sql) => async () => {
        const [row] = await db().$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND ${condition}`;
        return row!.n > 0;
      };
      const sleepy = write("Sleepy");
      await until('"Sleepy" to be committing (asleep, holding the feed\'s lock)', waiting(Prisma.sql`wait_event = 'PgSleep'`));
      const quick = write("Quick");
      await until('"Quick" to be committing behind it', waiting(Prisma.sql`wait_event_type = 'Lock' AND wait_event = 'advisory'`));
      // "Quick" has reached its commit and waits: it must not be visible before "Sleepy".
      expect((await readAll(since)).map((e) => (e.data.pet as Pet).name)).toEqual([]);
      await Promise.all([sleepy, quick]);
      expect((await readAll(since)).map((e) => (e.data.pet as Pet).name)).toEqual(["Sleepy", "Quick"]);
    } finally {
      await db().$executeRawUnsafe("DROP TRIGGER zz_slow_commit ON pet_audit");
      await db().$executeRawUnsafe("DROP FUNCTION slow_commit()");
    }
  });

  it("20 writers and a reader polling in a tight loop: every event exactly once, in commit order, no gap", async () => {
    const start = await lastId();
    const seen: string[] = [];
    let cursor = start;
    let writing = true;
    let polls = 0;

    async function poll(): Promise<number> {
      // A reader of the records: it is sent every event (the sales' pet.stay.ended too).
      const { events } = await feed(`?limit=100${cursor ? `&after=${cursor}` : ""}`, recordsKey);
      polls++;
      for (const e of events) seen.push(e.id);
      if (events.length) cursor = events.at(-1)!.id;
      return events.length;
    }

    const reader = (async () => {
      while (writing) await poll();
      while ((await poll()) > 0);
    })();

    // Writers of different lengths (creates, idempotent creates that hold
    // their transaction a little longer, updates) so commits interleave.
    const writers = Array.from({ length: 20 }, async (_, w) => {
      for (let i = 0; i < 8; i++) {
        const headers: Record<string, string> = w % 3 === 0 ? { "idempotency-key": `race-${w}-${i}` } : {};
        const pet = await create({ name: `Racer ${w}-${i}`, categoryId: 1 + (w % 6) }, headers);
        if (i % 2 === 0) await expectJson(await patch(pet.id, { status: i % 4 === 0 ? "pending" : "sold" }));
      }
    });
    // And writers whose transaction stays open a moment after its record is
    // written (what an idempotent create does while it stores its answer):
    // the widest window for a position taken too early to show.
    const { createPet } = await import("@/lib/pets/service");
    const slowWriters = Array.from({ length: 5 }, async (_, w) => {
      for (let i = 0; i < 8; i++) {
        await db().$transaction(async (tx) => {
          await createPet(
            newPetSchema.parse({ name: `Slow ${w}-${i}`, categoryId: 1 }),
            {
              actor: { kind: "staff", id: staff.staffId, email: staff.email },
              requestId: `slow-${w}-${i}`,
              tenancy: { kind: "organization", organizationId: 1 },
            },
            petView(new Date()),
            tx,
          );
          // A deliberate pause of 0 to 5 ms, different per writer: it only shuffles the commits' order.
          await new Promise((r) => setTimeout(r, (w * 7 + i * 3) % 6));
        });
      }
    });
    await Promise.all([...writers, ...slowWriters]);
    writing = false;
    await reader;

    const committed = await db().event.findMany({
      where: start ? { position: { gt: BigInt(start.slice(4)) } } : {},
      orderBy: { position: "asc" },
      select: { position: true },
    });
    // Creates, updates, each sale's pet.stay.ended (20 writers × 2 sales), slow creates.
    expect(committed).toHaveLength(20 * 8 + 20 * 4 + 20 * 2 + 5 * 8);
    expect(polls).toBeGreaterThan(10);
    // What the reader saw is exactly what committed, once each, in order.
    expect(seen).toEqual(committed.map((r) => `evt_${r.position}`));
  }, 60_000);
});
