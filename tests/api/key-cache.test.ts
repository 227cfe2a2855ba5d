import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { until } from "@/tests/wait";
import { GET as listGET } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import { KEY_CHANNEL, listen, stopKeyCache } from "@/lib/keys/cache";
import * as keyQueries from "@/lib/keys/queries";
import { revokeApiKey, setApiKeyPlan } from "@/lib/keys/service";
import { PLATFORM } from "@/lib/organizations/tenancy";
import { call, expectApiError, expectJson, newKey } from "./helpers";

// Resolved keys are cached in-process for a few seconds, and any change to
// a key, made by any process, reaches every cache through PostgreSQL's
// LISTEN/NOTIFY: a revoked key is refused within moments everywhere.

afterEach(() => vi.restoreAllMocks());

const list = (key: string) => call(listGET, "/v1/pets?limit=1", { key });
/** Until `check` holds, at most `ms`; returns how long it took. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  await until(`${what} within ${ms} ms`, check, ms);
  return Date.now() - started;
}

describe("the key cache", () => {
  it("resolves a key from the database once, then from memory", async () => {
    await listen();
    const { key } = await newKey(["pets:read"]);
    const lookups = vi.spyOn(keyQueries, "findApiKeyByHash");
    for (let i = 0; i < 5; i++) await expectJson(await list(key));
    expect(lookups).toHaveBeenCalledTimes(1);
  });

  it("forgets a key revoked in this process at once", async () => {
    await listen();
    const { key, id } = await newKey(["pets:read"]);
    await expectJson(await list(key));
    await revokeApiKey(id, PLATFORM);
    await expectApiError(await list(key), 401, "unauthorized");
  });

  it("forgets a key another process changed, as soon as that process announces it", async () => {
    await listen();
    const { key, id } = await newKey(["pets:read"], "changed elsewhere", { plan: "free" });
    await expectJson(await list(key));
    // Another instance revokes it: the row changes and the change is announced.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    await other.query("UPDATE api_keys SET revoked_at = now() WHERE id = $1", [id]);
    // Before the announcement this process still trusts its cache (which is what the announcement is for).
    await expectJson(await list(key));
    await other.query("SELECT pg_notify($1, $2)", [KEY_CHANNEL, String(id)]);
    await other.end();
    const ms = await within(1_000, "the notified key to be refused", async () => (await list(key)).status === 401);
    expect(ms).toBeLessThan(1_000);
  });

  it("a plan change takes effect on the next request", async () => {
    await listen();
    const { key, id } = await newKey(["pets:read"], "upgraded", { plan: "free" });
    vi.stubEnv("RATE_LIMIT_ENABLED", "true");
    const { resetEnvCache } = await import("@/lib/env");
    resetEnvCache();
    try {
      expect((await list(key)).headers.get("x-ratelimit-limit")).toBe("60");
      await setApiKeyPlan(id, "business");
      expect((await list(key)).headers.get("x-ratelimit-limit")).toBe("1000");
    } finally {
      vi.unstubAllEnvs();
      resetEnvCache();
      const { setCounterStore } = await import("@/lib/rate-limit/shared-store");
      await setCounterStore(undefined);
    }
  });

  it("does not keep a key read before the announcements could be heard, even when listening begins during the read", async () => {
    await stopKeyCache();
    const { key } = await newKey(["pets:read"]);
    const real = keyQueries.findApiKeyByHash;
    // The read is slow: the listening connection comes up while it is under way.
    const lookups = vi.spyOn(keyQueries, "findApiKeyByHash").mockImplementation(async (hash) => {
      const row = await real(hash);
      await listen();
      return row;
    });
    await expectJson(await list(key));
    await expectJson(await list(key));
    await expectJson(await list(key));
    // The first read predates LISTEN (an announcement may have been missed): read again, then cached.
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it("is not used while this process cannot hear the announcements", async () => {
    await stopKeyCache();
    const lookups = vi.spyOn(keyQueries, "findApiKeyByHash");
    const { key } = await newKey(["pets:read"]);
    // The first request starts listening; until then every request reads the row.
    await expectJson(await list(key));
    expect(lookups).toHaveBeenCalledTimes(1);
    await listen();
    await expectJson(await list(key));
    await expectJson(await list(key));
    expect(lookups).toHaveBeenCalledTimes(2);
    // The listening connection drops: the cache empties and is bypassed until it is back.
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND datname = current_database()");
    await admin.end();
    await within(2_000, "the cache to be bypassed once its listener is gone", async () => {
      await list(key);
      return lookups.mock.calls.length >= 3;
    });
    expect(await db().apiKey.count()).toBeGreaterThan(0);
  });
});
