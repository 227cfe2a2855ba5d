import { applicationName } from "@/lib/db";
import { setBounded } from "@/lib/bounded-map";
import { env } from "@/lib/env";
import { onShutdown } from "@/lib/lifecycle";
import { logger } from "@/lib/log";
import { ResilientClient } from "@/lib/pg-client";

// Resolved API keys, kept in this process for a few seconds: a partner's
// every request would otherwise cost a database round trip just to learn
// what the previous one already learnt. Any change to a key (revoked, plan
// changed, banned, unbanned) is announced on a PostgreSQL channel that
// every instance (and every cluster worker) listens to, and drops the key
// from every cache at once: a revoked key is refused everywhere within
// moments, not after the TTL. While this process is not listening (not yet
// connected, or the connection dropped), the cache is not used at all:
// without the announcements its answers could be stale.

export const KEY_CHANNEL = "petstore_api_keys";
const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface CachedKey<T> {
  keyId: bigint;
  value: T;
  expiresAt: number;
  /** When this process last recorded the key's use (lastUsedAt is written at most once a minute). */
  touchedAt: number;
}

interface State {
  entries: Map<string, CachedKey<unknown>>;
  listening: boolean;
  /** Counts every start and loss of listening: a key read in an earlier one may have missed an announcement. */
  generation: number;
  client?: ResilientClient;
  connecting?: Promise<void>;
  stopped: boolean;
  retry?: NodeJS.Timeout;
}

const holder = globalThis as unknown as { petstoreKeyCache?: State };
function state(): State {
  holder.petstoreKeyCache ??= { entries: new Map(), listening: false, generation: 0, stopped: false };
  return holder.petstoreKeyCache;
}

/** The cached resolution of a key hash, when the cache may be trusted and it is fresh. */
export function cachedKey<T>(hash: string, now: number): CachedKey<T> | undefined {
  const s = state();
  if (!s.listening) {
    void listen();
    return undefined;
  }
  const entry = s.entries.get(hash) as CachedKey<T> | undefined;
  if (!entry) return undefined;
  if (entry.expiresAt <= now) {
    s.entries.delete(hash);
    return undefined;
  }
  return entry;
}

/** Taken before a key is read from the database, and given to cacheKey with what was read. */
export function cacheGeneration(): number {
  return state().generation;
}

export function cacheKey<T>(hash: string, keyId: bigint, value: T, now: number, touchedAt: number, readIn: number): CachedKey<T> {
  const s = state();
  const entry: CachedKey<T> = { keyId, value, expiresAt: now + TTL_MS, touchedAt };
  // A key read before this process was listening (or before it last lost
  // the channel) may predate an announcement it never heard: it serves this
  // request and is not kept.
  if (!s.listening || readIn !== s.generation) return entry;
  setBounded(s.entries, hash, entry as CachedKey<unknown>, MAX_ENTRIES);
  return entry;
}

/** Drops a key from this process's cache (the announcement does it for every other one). */
export function forgetKey(keyId: bigint): void {
  for (const [hash, entry] of state().entries) if (entry.keyId === keyId) state().entries.delete(hash);
}

function forgetAll(): void {
  state().entries.clear();
}

/** Connects the listening client (once; again after a failure, with a short delay). */
export function listen(): Promise<void> {
  const s = state();
  if (s.listening || s.stopped) return Promise.resolve();
  s.connecting ??= (async () => {
    const url = env().DATABASE_URL;
    if (!url) return;
    const client = new ResilientClient({ connectionString: url, application_name: applicationName() });
    const lost = () => {
      if (s.client !== client) return;
      s.listening = false;
      s.generation++;
      s.client = undefined;
      forgetAll();
      client.end().catch(() => {});
      if (!s.stopped) {
        logger().warn("api key change announcements lost: the key cache is off until they are back");
        s.retry = setTimeout(() => void listen(), 1_000);
        s.retry.unref();
      }
    };
    try {
      await client.connect();
      client.on("notification", (message) => {
        if (message.channel !== KEY_CHANNEL || !message.payload) return;
        if (message.payload === "*") forgetAll();
        else if (/^\d+$/.test(message.payload)) forgetKey(BigInt(message.payload));
      });
      client.on("error", lost);
      client.on("end", lost);
      await client.query(`LISTEN ${KEY_CHANNEL}`);
      // A connection kept only for LISTEN must not keep the process alive.
      (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      s.client = client;
      s.generation++;
      s.listening = !s.stopped;
      if (s.stopped) await client.end();
    } catch {
      client.end().catch(() => {});
      if (!s.stopped) {
        s.retry = setTimeout(() => void listen(), 1_000);
        s.retry.unref();
      }
    }
  })().finally(() => {
    s.connecting = undefined;
  });
  return s.connecting;
}

/** Stops listening and empties the cache (shutdown, tests). */
export async function stopKeyCache(): Promise<void> {
  const s = state();
  s.stopped = true;
  s.listening = false;
  s.generation++;
  clearTimeout(s.retry);
  forgetAll();
  await s.connecting;
  const client = s.client;
  s.client = undefined;
  await client?.end().catch(() => {});
  s.stopped = false;
}

onShutdown("api key cache", stopKeyCache);
