import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as readyzRoute } from "@/app/readyz/route";
import { GET as categoriesRoute } from "@/app/v1/categories/route";
import { GET as feedRoute } from "@/app/v1/events/route";
import { GET as getPetRoute, PATCH as patchPetRoute } from "@/app/v1/pets/[petId]/route";
import { GET as listRoute, POST as createRoute } from "@/app/v1/pets/route";
import { disconnectDb } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import { metrics } from "@/lib/metrics";
import type { Pet } from "@/lib/pets/schemas/pet";
import { checkReplicas, closeReplicas } from "@/lib/replicas";
import { canRunReplicaCluster, startReplicaCluster, type ReplicaCluster } from "@/scripts/replica-cluster";
import { resetDatabase } from "@/tests/db";
import { call, expectJson, newKey, staffSession, type StaffSession } from "./helpers";
import { until } from "@/tests/wait";

// Reads from a real streaming replica: a primary and a standby of the tests'
// own (scripts/replica-cluster.ts). Which reads go where, the lag fallback
// (replay paused on the standby; the standby cut off from its primary), read-your-writes for keys and sessions and
// for a tag the client already has, and a replica stopped under load with no
// request failing.

let cluster: ReplicaCluster | undefined;
let writer: string;
let reader: string;
let staff: StaffSession;

function configure(maxLagMs: number) {
  vi.stubEnv("REPLICA_MAX_LAG_MS", String(maxLagMs));
  resetEnvCache();
}

beforeAll(async () => {
  if (!canRunReplicaCluster) return;
  cluster = await startReplicaCluster();
  vi.stubEnv("DATABASE_URL", cluster.primaryUrl);
  vi.stubEnv("DATABASE_REPLICA_URL", cluster.replicaUrl);
  configure(1_000);
  await disconnectDb();
  await closeReplicas();
  await setCounterStore(undefined);
  await resetDatabase();
  ({ key: writer } = await newKey(["pets:read", "pets:write"], "writer"));
  ({ key: reader } = await newKey(["pets:read"], "reader"));
  staff = await staffSession();
  await untilReplica((s) => s.status === "up");
}, 180_000);

afterAll(async () => {
  await closeReplicas();
  await disconnectDb();
  await setCounterStore(undefined);
  vi.unstubAllEnvs();
  resetEnvCache();
  cluster?.stop();
});

/** Waits until the monitor's check of the replica satisfies `ok`. */
function untilReplica(ok: (s: { status: string; lagMs: number | null }) => boolean, timeoutMs = 20_000) {
  return until(
    "the replica's status",
    async () => {
      const [status] = await checkReplicas();
      return status && ok(status) ? status : null;
    },
    timeoutMs,
  );
}

async function reads(): Promise<Record<string, number>> {
  const { values } = await metrics().dbReads.get();
  return Object.fromEntries(values.map((v) => [String(v.labels.target), v.value]));
}
const moved = (before: Record<string, number>, after: Record<string, number>) => {
  const delta = (t: string) => (after[t] ?? 0) - (before[t] ?? 0);
  return { replica: delta("replica"), primary: delta("primary"), primary_fallback: delta("primary_fallback") };
};

const create = async (name: string, key = writer) =>
  expectJson<Pet>(await call(createRoute, "/v1/pets", { method: "POST", key, json: { name, categoryId: 1 } }), 201);
const list = async (key: string, headers: Record<string, string> = {}) => call(listRoute, "/v1/pets?limit=5", { key, headers });
const names = async (res: Response) => ((await res.json()) as Pet[]).map((p) => p.name);

describe.skipIf(!canRunReplicaCluster)("reads from a streaming replica", () => {
  it("the list, ?id= lookups, getPet and categories read the replica; the feed reads the primary", async () => {
    const pet = await create("Replicated");
    // Another caller, who changed nothing: its reads may use the replica once it has the animal.
    await untilReplica((s) => s.status === "up" && s.lagMs === 0);
    const before = await reads();
    expect(await names(await list(reader))).toContain("Replicated");
    await expectJson(await call(listRoute, `/v1/pets?id=${pet.id}`, { key: reader }));
    await expectJson(await call(getPetRoute, `/v1/pets/${pet.id}`, { key: reader, params: { petId: String(pet.id) } }));
    await expectJson(await call(categoriesRoute, "/v1/categories", { key: reader }));
    const after = await reads();
    expect(moved(before, after)).toEqual({ replica: 4, primary: 0, primary_fallback: 0 });
  });

  it("a replica further behind than REPLICA_MAX_LAG_MS is skipped: reads go to the primary, /readyz and the metrics say so", async () => {
    await cluster!.onReplica("SELECT pg_wal_replay_pause()");
    try {
      await create("While paused");
      const lagging = await untilReplica((s) => s.status === "lagging");
      expect(lagging.lagMs).toBeGreaterThan(1_000);

      const before = await reads();
      // The reader has written nothing, yet sees the new animal: the primary answered.
      expect(await names(await list(reader))).toContain("While paused");
      expect(moved(before, await reads())).toMatchObject({ replica: 0, primary: 1 });
      // The feed never depends on a replica.
      const feed = await expectJson<{ type: string; data: { pet: Pet } }[]>(await call(feedRoute, "/v1/events?limit=100", { key: reader }));
      expect(feed.map((e) => e.data.pet.name)).toContain("While paused");

      const ready = await readyzRoute();
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as { status: string; checks: { replicas: { replica: number; status: string; lagMs: number }[] } };
      expect(body.status).toBe("ready");
      expect(body.checks.replicas).toEqual([{ replica: 0, status: "lagging", lagMs: expect.any(Number) }]);
      const lag = (await metrics().replicaLag.get()).values.find((v) => v.labels.replica === "0")!.value;
      expect(lag).toBeGreaterThan(1);
    } finally {
      await cluster!.onReplica("SELECT pg_wal_replay_resume()");
    }
    await untilReplica((s) => s.status === "up");
    const before = await reads();
    await list(reader);
    expect(moved(before, await reads())).toMatchObject({ replica: 1, primary: 0 });
  });

  it("a standby cut off from its primary, replaying all it received, is still seen lagging once the primary moves on", async () => {
    // Its WAL receiver stopped (no primary_conninfo), nothing paused: by its
    // own measures (received = replayed) it is caught up; only the primary's
    // position shows what it lacks.
    const replica = new pg.Client({ connectionString: cluster!.replicaUrl });
    await replica.connect();
    const { rows } = await replica.query<{ primary_conninfo: string }>("SHOW primary_conninfo");
    await replica.end();
    const conninfo = rows[0]!.primary_conninfo;
    expect(conninfo).toContain("port=");
    await cluster!.onReplica("ALTER SYSTEM SET primary_conninfo = ''");
    await cluster!.onReplica("SELECT pg_reload_conf()");
    try {
      await create("While cut off");
      const cutOff = await untilReplica((s) => s.status === "lagging");
      expect(cutOff.lagMs).toBeGreaterThan(1_000);
      const before = await reads();
      expect(await names(await list(reader))).toContain("While cut off");
      expect(moved(before, await reads())).toMatchObject({ replica: 0, primary: 1 });
    } finally {
      await cluster!.onReplica(`ALTER SYSTEM SET primary_conninfo = '${conninfo.replaceAll("'", "''")}'`);
      await cluster!.onReplica("SELECT pg_reload_conf()");
    }
    // Streaming again, it catches up and is used again.
    await untilReplica((s) => s.status === "up" && s.lagMs === 0);
    const before = await reads();
    expect(await names(await list(reader))).toContain("While cut off");
    expect(moved(before, await reads())).toMatchObject({ replica: 1, primary: 0 });
  });

  it("read-your-writes: a key or a session that changed something reads the primary for a while; others read the (stale) replica", async () => {
    // A lag bound long enough that the stale replica stays in use.
    configure(60_000);
    await cluster!.onReplica("SELECT pg_wal_replay_pause()");
    try {
      await create("Only on the primary");
      // The writer sees its own animal at once...
      expect(await names(await list(writer))).toContain("Only on the primary");
      // ...while another caller, reading the paused replica, does not yet.
      const stale = await list(reader);
      expect(await names(stale)).not.toContain("Only on the primary");

      // A tag the reader was given by the primary (here, the writer's) is never answered with an older page.
      const fresh = await list(writer);
      const tag = fresh.headers.get("etag")!;
      expect(stale.headers.get("etag")).not.toBe(tag);
      const conditional = await list(reader, { "if-none-match": tag });
      expect(conditional.status).toBe(304);

      // A staff session is a caller like a key.
      const pet = ((await (await list(writer)).json()) as Pet[])[0]!;
      const patched = await call(patchPetRoute, `/v1/pets/${pet.id}`, {
        method: "PATCH",
        json: { name: "Renamed by staff" },
        params: { petId: String(pet.id) },
        headers: { ...staff.headers, "content-type": "application/merge-patch+json" },
      });
      expect(patched.status).toBe(200);
      const seen = await call(getPetRoute, `/v1/pets/${pet.id}`, { headers: staff.headers, params: { petId: String(pet.id) } });
      expect(((await seen.json()) as Pet).name).toBe("Renamed by staff");
      const other = await call(getPetRoute, `/v1/pets/${pet.id}`, { key: reader, params: { petId: String(pet.id) } });
      expect(other.status).toBe(404); // created after the replica paused: not there yet
      // ...unless the reader holds a tag of it (passed on by the writer): then the primary answers getPet too.
      const tagged = await call(getPetRoute, `/v1/pets/${pet.id}`, {
        key: reader,
        params: { petId: String(pet.id) },
        headers: { "if-none-match": patched.headers.get("etag")! },
      });
      expect(tagged.status).toBe(200);
      expect(((await tagged.json()) as Pet).name).toBe("Renamed by staff");
    } finally {
      await cluster!.onReplica("SELECT pg_wal_replay_resume()");
      configure(1_000);
    }
    await untilReplica((s) => s.status === "up" && s.lagMs === 0);
    // The mark lasts 2 to 3 windows of REPLICA_MAX_LAG_MS (1 s here): after it, the writer reads the replica again.
    await create("Fence");
    await new Promise((r) => setTimeout(r, 3_100));
    const before = await reads();
    await list(writer);
    expect(moved(before, await reads())).toMatchObject({ replica: 1, primary: 0 });
  });

  it("the replica stopped under load: not one request fails, the primary takes over, /readyz reports it down", async () => {
    const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => newKey(["pets:read"], `load ${i}`)));
    const statuses: number[] = [];
    let stop = false;
    const client = async (key: string) => {
      while (!stop) statuses.push((await call(listRoute, "/v1/pets?limit=20", { key })).status);
    };
    const before = await reads();
    // Fifty clients at once, five per key.
    const running = Array.from({ length: 50 }, (_, i) => client(keys[i % keys.length]!.key));
    await new Promise((r) => setTimeout(r, 500));
    cluster!.stopReplica();
    await new Promise((r) => setTimeout(r, 1_500));
    stop = true;
    await Promise.all(running);

    expect(statuses.length).toBeGreaterThan(100);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const after = moved(before, await reads());
    expect(after.replica).toBeGreaterThan(0);
    expect(after.primary + after.primary_fallback).toBeGreaterThan(0);
    await untilReplica((s) => s.status === "down");
    const ready = (await (await readyzRoute()).json()) as { status: string; checks: { replicas: { status: string }[] } };
    expect(ready.status).toBe("ready");
    expect(ready.checks.replicas[0]!.status).toBe("down");
    expect((await metrics().replicaUp.get()).values.find((v) => v.labels.replica === "0")!.value).toBe(0);
    cluster!.startReplica();
  });
});
