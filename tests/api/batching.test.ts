import { petView, presentPet, type StoredPet } from "@/lib/pets/present";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getPet } from "@/app/v1/pets/[petId]/route";
import { GET as listPets, POST as createPet } from "@/app/v1/pets/route";
import * as database from "@/lib/db";
import type { Pet } from "@/lib/pets/schemas/pet";
import pg from "pg";
import { ORIGIN, call, expectApiError, expectJson, newKey } from "./helpers";

// Concurrent requests share their round trips to PostgreSQL (lib/batch.ts,
// docs/decisions/009): creates of the same moment are one statement and one
// commit, lookups of animals by id one statement, identical pages one. Each
// request must still get exactly its own answer, and never an answer older
// than itself.

let key: string;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "batching"));
});

afterEach(() => {
  vi.restoreAllMocks();
});

type PoolQuery = (this: pg.Pool, config: { text: string }, ...rest: unknown[]) => Promise<unknown>;
const sendToPool = pg.Pool.prototype.query as unknown as PoolQuery;

/** Counts the statements the app sends on its pool (lib/db.ts query()) whose text matches. */
function countStatements(pattern: RegExp): { count: () => number } {
  const spy = vi.spyOn(pg.Pool.prototype, "query");
  return { count: () => spy.mock.calls.filter(([config]) => pattern.test((config as { text?: string }).text ?? "")).length };
}

const create = (json: unknown) => call(createPet, "/v1/pets", { method: "POST", key, json });
const get = (id: number) => call(getPet, `/v1/pets/${id}`, { key, params: { petId: String(id) } });

describe("creates made at the same moment", () => {
  it("go as far fewer statements than requests, and each gets its own animal, audit record and event", async () => {
    const inserts = countStatements(/INSERT INTO pets/);
    const names = Array.from({ length: 30 }, (_, i) => `Batch ${i}`);
    const pets = await Promise.all(names.map(async (name, i) => expectJson<Pet>(await create({ name, categoryId: 1 + (i % 3), status: "pending" }), 201)));

    expect(pets.map((p) => p.name)).toEqual(names);
    expect(pets.map((p) => p.categoryId)).toEqual(names.map((_, i) => 1 + (i % 3)));
    expect(new Set(pets.map((p) => p.id)).size).toBe(30);
    expect(inserts.count()).toBeLessThan(10);

    const ids = pets.map((p) => BigInt(p.id));
    const audits = await database.db().petAudit.findMany({ where: { petId: { in: ids } } });
    // Records keep the animal without what depends on the answer (ageGroup, photo URLs): shown, they are the API's Pet.
    const view = petView(new Date(), ORIGIN);
    expect(audits.map((a) => [Number(a.petId), presentPet(a.after as unknown as StoredPet, view)]).sort()).toEqual(pets.map((p) => [p.id, p]).sort());
    const events = await database.db().event.findMany({ where: { petId: { in: ids } }, orderBy: { position: "asc" } });
    expect(events.map((e) => presentPet((e.data as unknown as { pet: StoredPet }).pet, view)).sort((a, b) => a.id - b.id)).toEqual(
      [...pets].sort((a, b) => a.id - b.id),
    );
  });

  it("an unknown category fails only its own create (400), the others are made", async () => {
    const results = await Promise.all([
      create({ name: "Fine 1", categoryId: 1 }),
      create({ name: "Lost", categoryId: 999 }),
      create({ name: "Fine 2", categoryId: 2 }),
    ]);
    await expectJson(results[0]!, 201);
    await expectApiError(results[1]!, 400, "unknown_category");
    await expectJson(results[2]!, 201);
    expect(await database.db().pet.count({ where: { name: "Lost" } })).toBe(0);
  });

  it("a create the database refuses fails alone (500); the creates sent with it are retried on their own and made", async () => {
    await database.db().$executeRawUnsafe(`
      CREATE FUNCTION refuse_spoiler() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.after->>'name' = 'Spoiler' THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN NEW; END $$`);
    await database.db().$executeRawUnsafe("CREATE TRIGGER refuse_spoiler BEFORE INSERT ON pet_audit FOR EACH ROW EXECUTE FUNCTION refuse_spoiler()");
    try {
      const spy = vi.spyOn(pg.Pool.prototype, "query");
      const names = ["Good 1", "Spoiler", "Good 2", "Good 3"];
      const results = await Promise.all(names.map((name) => create({ name, categoryId: 1 })));
      // The spoiler went with others first, then alone.
      const sentNames = spy.mock.calls
        .map(([config]) => config as unknown as { text?: string; values?: unknown[] })
        .filter((c) => /INSERT INTO pets/.test(c.text ?? ""))
        .map((c) => c.values![0] as string[]);
      expect(sentNames.some((batch) => batch.length > 1 && batch.includes("Spoiler"))).toBe(true);
      expect(sentNames).toContainEqual(["Spoiler"]);
      await expectApiError(results[1]!, 500, "internal_error");
      for (const i of [0, 2, 3]) expect((await expectJson<Pet>(results[i]!, 201)).name).toBe(names[i]);
      expect(await database.db().pet.count({ where: { name: "Spoiler" } })).toBe(0);
      expect(await database.db().pet.count({ where: { name: { startsWith: "Good " } } })).toBe(3);
    } finally {
      await database.db().$executeRawUnsafe("DROP TRIGGER refuse_spoiler ON pet_audit");
      await database.db().$executeRawUnsafe("DROP FUNCTION refuse_spoiler()");
    }
  });
});

describe("lookups by id made at the same moment", () => {
  it("share one statement, and each gets its own animal or its own 404", async () => {
    const pets = await Promise.all(["Ada", "Bo", "Cy"].map(async (name) => expectJson<Pet>(await create({ name, categoryId: 1 }), 201)));
    const lookups = countStatements(/WHERE p\.id = ANY/);
    const missing = pets.at(-1)!.id + 1_000;
    const results = await Promise.all([...pets.map((p) => get(p.id)), get(missing), get(pets[0]!.id)]);
    expect(lookups.count()).toBe(1);
    for (const [i, pet] of pets.entries()) expect(await expectJson<Pet>(results[i]!)).toEqual(pet);
    await expectApiError(results[3]!, 404, "not_found");
    expect(await expectJson<Pet>(results[4]!)).toEqual(pets[0]);
  });
});

describe("identical pages asked for at the same moment", () => {
  it("share one statement; different pages do not", async () => {
    const pages = countStatements(/FROM pets/);
    const same = await Promise.all(Array.from({ length: 10 }, () => call(listPets, "/v1/pets?status=pending&limit=5", { key })));
    expect(pages.count()).toBe(1);
    const bodies = await Promise.all(same.map((res) => expectJson<Pet[]>(res)));
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);

    await Promise.all([call(listPets, "/v1/pets?status=pending&limit=5", { key }), call(listPets, "/v1/pets?status=sold&limit=5", { key })]);
    expect(pages.count()).toBe(3);
  });

  it("never answer from a statement sent before the request: a page asked for while one is in flight waits for its own", async () => {
    // Hold the first page statement before it reaches PostgreSQL, so it is in
    // flight; a create commits meanwhile, and the same page is asked for again:
    // that request must get a statement of its own, sent after it asked.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pages: string[] = [];
    vi.spyOn(pg.Pool.prototype, "query").mockImplementation(function (this: pg.Pool, config: unknown, ...rest: unknown[]) {
      const text = (config as { text?: string }).text ?? "";
      if (!/FROM pets/.test(text) || /INSERT/.test(text)) return sendToPool.call(this, config as { text: string }, ...rest);
      pages.push(text);
      return (pages.length === 1 ? held : Promise.resolve()).then(() => sendToPool.call(this, config as { text: string }, ...rest));
    } as never);
    const early = call(listPets, "/v1/pets?limit=3", { key });
    while (pages.length === 0) await new Promise((r) => setImmediate(r));
    const fresh = await expectJson<Pet>(await create({ name: "Newest", categoryId: 1 }), 201);
    const late = call(listPets, "/v1/pets?limit=3", { key });
    await new Promise((r) => setImmediate(r));
    release();
    const lateBody = await expectJson<Pet[]>(await late);
    await expectJson<Pet[]>(await early);
    expect(pages).toHaveLength(2);
    expect(lateBody[0]).toEqual(fresh);
  });
});
