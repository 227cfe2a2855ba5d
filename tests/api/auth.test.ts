import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getPetRoute } from "@/app/v1/pets/[petId]/route";
import { GET as listPetsRoute, POST as createPetRoute } from "@/app/v1/pets/route";
import { GET as listCategoriesRoute } from "@/app/v1/categories/route";
import { flushBackground } from "@/lib/background";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { revokeApiKey } from "@/lib/keys/service";
import { PLATFORM } from "@/lib/organizations/tenancy";
import { call, expectApiError, newKey, seedPets, UNKNOWN_KEY, type CallOptions } from "./helpers";

// Bearer API keys on every endpoint: who gets in, who does not, and what is
// kept of a key.

let key: string;
let keyId: number;
let revokedKey: string;
let petId: number;

beforeAll(async () => {
  ({ key, id: keyId } = await newKey(["pets:read", "pets:write"], "main"));
  const revoked = await newKey(["pets:read", "pets:write"], "revoked");
  revokedKey = revoked.key;
  await revokeApiKey(revoked.id, PLATFORM);
  petId = (await seedPets([{ name: "Rosie" }]))[0]!.id;
});

interface Endpoint {
  name: string;
  send: (auth: Pick<CallOptions, "authorization">) => Promise<Response>;
  ok: number;
}

const ENDPOINTS: Endpoint[] = [
  { name: "GET /v1/pets", send: (auth) => call(listPetsRoute, "/v1/pets", auth), ok: 200 },
  {
    name: "POST /v1/pets",
    send: (auth) => call(createPetRoute, "/v1/pets", { method: "POST", json: { name: "Auth test", categoryId: 1 }, ...auth }),
    ok: 201,
  },
  {
    name: "GET /v1/pets/{petId}",
    send: (auth) => call(getPetRoute, `/v1/pets/${petId}`, { params: { petId: String(petId) }, ...auth }),
    ok: 200,
  },
  { name: "GET /v1/categories", send: (auth) => call(listCategoriesRoute, "/v1/categories", auth), ok: 200 },
];

const BAD_CREDENTIALS: [string, () => string | undefined][] = [
  ["a missing Authorization header", () => undefined],
  ["the Basic scheme", () => "Basic xyz"],
  ["Basic with a valid key as the credential", () => `Basic ${Buffer.from(`${key}:`).toString("base64")}`],
  ["Bearer with nothing after it", () => "Bearer"],
  ["Bearer with only spaces after it", () => "Bearer    "],
  ["a malformed token", () => "Bearer not-a-key"],
  ["a key without its scheme", () => key],
  ["a token of the wrong length", () => `Bearer ${key}x`],
  ["two tokens", () => `Bearer ${key} ${key}`],
  ["a well-formed but unknown key", () => `Bearer ${UNKNOWN_KEY}`],
  ["a revoked key", () => `Bearer ${revokedKey}`],
];

describe.each(ENDPOINTS)("$name", (endpoint) => {
  it.each(BAD_CREDENTIALS)("%s → 401 unauthorized with a Bearer challenge", async (_label, credential) => {
    const authorization = credential();
    const res = await endpoint.send(authorization === undefined ? {} : { authorization });
    await expectApiError(res, 401, "unauthorized");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  });

  it.each(["Bearer", "bearer", "BEARER", "bEaReR"])("accepts the scheme written %s", async (scheme) => {
    const res = await endpoint.send({ authorization: `${scheme} ${key}` });
    expect(res.status).toBe(endpoint.ok);
    expect(res.headers.get("www-authenticate")).toBeNull();
  });
});

describe("lastUsedAt", () => {
  const lastUsedAt = async (id: number) => (await db().apiKey.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { lastUsedAt: true } })).lastUsedAt;

  it("is written after a successful call, and not again within the minute", async () => {
    const fresh = await newKey(["pets:read"], "fresh");
    expect(await lastUsedAt(fresh.id)).toBeNull();

    const before = Date.now();
    expect((await call(listPetsRoute, "/v1/pets", { key: fresh.key })).status).toBe(200);
    await flushBackground();
    const first = await lastUsedAt(fresh.id);
    expect(first).toBeInstanceOf(Date);
    // The database clock writes it: allow for a little skew with the test process.
    expect(first!.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    expect(first!.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);

    for (let i = 0; i < 3; i++) expect((await call(listCategoriesRoute, "/v1/categories", { key: fresh.key })).status).toBe(200);
    await flushBackground();
    expect(await lastUsedAt(fresh.id)).toEqual(first);
  });

  it("is written again once more than a minute has passed (the key cache does not hide the minute)", async () => {
    expect((await call(listPetsRoute, "/v1/pets", { key })).status).toBe(200);
    const stale = new Date(Date.now() - 2 * 60_000);
    await db().apiKey.update({ where: { id: BigInt(keyId) }, data: { lastUsedAt: stale } });
    // Within the minute this process wrote it: not again.
    expect((await call(listPetsRoute, "/v1/pets", { key })).status).toBe(200);
    await flushBackground();
    expect(await lastUsedAt(keyId)).toEqual(stale);
    // A minute later (the clock moved on): written again.
    setClock(new Date(Date.now() + 61_000));
    try {
      expect((await call(listPetsRoute, "/v1/pets", { key })).status).toBe(200);
    } finally {
      setClock();
    }
    await flushBackground();
    const now = await lastUsedAt(keyId);
    expect(now!.getTime()).toBeGreaterThan(stale.getTime() + 60_000);
  });

  it("is not written by a failed authentication (revoked key)", async () => {
    const k = await newKey(["pets:read"], "revoked-later");
    await revokeApiKey(k.id, PLATFORM);
    await call(listPetsRoute, "/v1/pets", { key: k.key });
    await flushBackground();
    expect(await lastUsedAt(k.id)).toBeNull();
  });
});

describe("keys at rest", () => {
  it("no column of api_keys holds a plaintext key; hash is its SHA-256 hex", async () => {
    const issued = [key, revokedKey, (await newKey(["pets:read"], "one more")).key];
    const rows = await db().$queryRaw<Record<string, unknown>[]>`SELECT * FROM api_keys`;
    expect(rows.length).toBeGreaterThanOrEqual(issued.length);
    const dump = JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    for (const k of issued) {
      expect(dump).not.toContain(k);
      expect(dump).not.toContain(k.slice(8)); // the secret part without its prefix
      expect(dump).not.toContain(k.slice(8, 28)); // nor a large part of it
    }

    const byHash = new Map(rows.map((r) => [String(r.hash).trim(), r]));
    for (const k of issued) {
      const hash = createHash("sha256").update(k).digest("hex");
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      const row = byHash.get(hash);
      expect(row, `a row with hash sha256(${k.slice(0, 8)}…)`).toBeDefined();
      expect(row!.last4).toBe(k.slice(-4));
      expect(row!.prefix).toBe(k.slice(0, 8));
    }
  });

  it("issued keys look like pk_live_ + 32 base62 characters", async () => {
    expect(key).toMatch(/^pk_(live|test)_[0-9A-Za-z]{32}$/);
  });
});
