import { Redis } from "ioredis";
import { metrics } from "@/lib/metrics";
import { CounterStoreUnavailable, counterKey, type Counter, type CounterStore } from "@/lib/rate-limit/store";

/**
 * Counters in Redis: INCR per window inside one MULTI/EXEC, sent as one
 * pipeline (one round trip). Each key names its window's start, and expires
 * a little after the window ends, so Redis cleans up by itself.
 *
 * Keys carry the deployment's namespace (the database's, read once): one
 * Redis may serve several deployments, and each one's key 1 is another caller.
 */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;
  private prefix?: string;
  private prefixing?: Promise<string>;

  /** `namespace`: the deployment's name, or how to learn it (asked again after a failure). */
  constructor(
    url: string,
    private readonly namespace: string | (() => Promise<string>),
  ) {
    this.redis = new Redis(url, {
      // Commands sent while the connection is still opening wait for it (a
      // fresh instance's first request must not fail), but a Redis that is
      // away fails them fast: one reconnect attempt, then 503, never a hang.
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      connectTimeout: 2_000,
      commandTimeout: 2_000,
      lazyConnect: false,
    });
    this.redis.on("error", () => {});
    // The connection's state as a gauge: 1 once ready, 0 whenever it is lost.
    this.redis.on("ready", () => metrics().redisConnected.set(1));
    this.redis.on("close", () => metrics().redisConnected.set(0));
  }

  /** `petstore:<namespace>:rl:`, learnt on the first use and kept; the hot path then awaits nothing. */
  private async keyPrefix(): Promise<string> {
    if (this.prefix) return this.prefix;
    const { namespace } = this;
    this.prefixing ??= (typeof namespace === "string" ? Promise.resolve(namespace) : namespace()).then(
      (name) => (this.prefix = `petstore:${name}:rl:`),
      (error: unknown) => {
        this.prefixing = undefined;
        throw error;
      },
    );
    return this.prefixing;
  }

  private key(prefix: string, c: Counter): string {
    return `${prefix}${counterKey(c)}:${c.window.start.getTime()}`;
  }

  async hit(counters: Counter[], by = 1): Promise<number[]> {
    let prefix: string;
    try {
      prefix = this.prefix ?? (await this.keyPrefix());
    } catch (error) {
      throw new CounterStoreUnavailable(error);
    }
    const multi = this.redis.multi();
    for (const c of counters) {
      const key = this.key(prefix, c);
      multi.incrby(key, by);
      // Expiry from the real clock (Redis's), a minute past the window's end.
      multi.pexpire(key, c.window.seconds * 1000 + 60_000, "NX");
    }
    try {
      const results = await multi.exec();
      if (!results) throw new Error("transaction aborted");
      return counters.map((_, i) => {
        const [error, count] = results[i * 2]!;
        if (error) throw error;
        return Number(count);
      });
    } catch (error) {
      metrics().redisCommandErrors.inc();
      throw new CounterStoreUnavailable(error);
    }
  }

  async peek(counters: Counter[]): Promise<number[]> {
    const prefix = this.prefix ?? (await this.keyPrefix());
    const values = await this.redis.mget(...counters.map((c) => this.key(prefix, c)));
    return values.map((v) => Number(v ?? 0));
  }

  async sweep(): Promise<number> {
    return 0; // Keys expire by themselves.
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    // QUIT lets replies in flight arrive; disconnect if Redis is already gone.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
