import { env } from "@/lib/env";
import type { Caller } from "@/lib/sessions/caller";
import { ApiError } from "@/lib/core/errors";
import { banApiKey } from "@/lib/keys/service";
import { metrics } from "@/lib/metrics";
import { logger } from "@/lib/log";
import { counterStore } from "@/lib/rate-limit/shared-store";
import { hitsAnswered, hitsSent, knownWithinLimits } from "@/lib/rate-limit/known-counts";
import { CounterStoreUnavailable } from "@/lib/rate-limit/store";
import { windowAt, type Window } from "@/lib/rate-limit/windows";

// Spec section 8 and product.md "Rate limits": every request counts against
// its caller's minute and day windows (one round trip to the shared store);
// the headers describe the window closest to exhaustion; over the limit is
// 429; a key that sends its per-minute figure again while limited is banned.

export const BAN_MS = 15 * 60_000;

interface WindowState {
  window: Window;
  /** The policy's name in the RateLimit headers: "minute", "day", "address-minute"... */
  name: string;
  limit: number;
  hits: number;
  remaining: number;
}

export interface RateLimitOutcome {
  headers: Record<string, string>;
  /** Set when the request must be refused (429). */
  error?: ApiError;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The window that binds: the one with fewer requests left; when both are spent, the one that reopens later. */
function binding(states: WindowState[]): WindowState {
  return states.reduce((a, b) => {
    if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
    return a.remaining === 0 && b.window.end > a.window.end ? b : a;
  });
}

function describe(states: WindowState[], bind: WindowState, now: Date, remaining = bind.remaining): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(bind.limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(unix(bind.window.end)),
    // IETF draft-ietf-httpapi-ratelimit-headers: a named policy per window.
    "RateLimit-Policy": states.map((s) => `"${s.name}";q=${s.limit};w=${s.window.seconds}`).join(", "),
    RateLimit: states.map((s) => `"${s.name}";r=${s === bind ? remaining : s.remaining};t=${seconds(s.window.end.getTime() - now.getTime())}`).join(", "),
  };
}

/**
 * Whether this caller's next hit is known to be allowed (lib/rate-limit/known-counts.ts): not a banned key,
 * and every budget it counts against heard of today with room left for its hits in flight and this one.
 * Only then may a read run while its hit is counted: a banned key, a caller known to be over a limit, and
 * one this process has not heard of today wait for the limiter's answer, so a refused request does no work.
 */
export function knownAllowed(caller: Caller, now: Date): boolean {
  if (!env().RATE_LIMIT_ENABLED) return true;
  if (caller.kind === "key" && caller.bannedUntil !== null && caller.bannedUntil > now) return false;
  const budgets = [{ rateKey: caller.rateKey, limits: caller.limits }, ...(caller.sharedBudgets ?? [])];
  return knownWithinLimits(budgets, { minute: windowAt("minute", now), day: windowAt("day", now) });
}

export async function applyRateLimit(caller: Caller, now: Date): Promise<RateLimitOutcome> {
  if (!env().RATE_LIMIT_ENABLED) return { headers: {} };
  const windows = [windowAt("minute", now), windowAt("day", now)];
  // The caller's own budget, then any it shares (an anonymous session's
  // address ceiling): every counter in one round trip.
  const budgets = [{ rateKey: caller.rateKey, limits: caller.limits, policy: "" }, ...(caller.sharedBudgets ?? [])];
  const counters = budgets.flatMap((b) => windows.map((window) => ({ rateKey: b.rateKey, window, budget: b })));
  const rateKeys = budgets.map((b) => b.rateKey);
  let counts: number[];
  hitsSent(rateKeys);
  try {
    counts = await counterStore().hit(counters);
    hitsAnswered(
      rateKeys,
      counters.map(({ rateKey, window }, i) => ({ rateKey, window, hits: counts[i]! })),
    );
  } catch (error) {
    hitsAnswered(rateKeys);
    logger().error({ err: error instanceof CounterStoreUnavailable ? error.cause : error }, "rate-limit store unavailable");
    throw new ApiError(503, "service_unavailable", "The service is temporarily unavailable. Please retry shortly.", undefined, {
      "Retry-After": "5",
    });
  }
  const states: WindowState[] = counters.map(({ window, budget }, i) => {
    const limit = window.name === "minute" ? budget.limits.perMinute : budget.limits.perDay;
    return { window, name: `${budget.policy}${window.name}`, limit, hits: counts[i]!, remaining: Math.max(0, limit - counts[i]!) };
  });
  const bind = binding(states);
  const minute = states[0]!;

  if (caller.kind === "key") {
    // Past twice the per-minute figure, the key is banned: it kept sending a
    // full minute's worth while already limited. Every hit past the
    // threshold asks for the ban until it is in force (the write happens
    // once per window), so one failed write cannot leave the key unbanned.
    const alreadyBanned = caller.bannedUntil !== null && caller.bannedUntil > now;
    const overThreshold = !alreadyBanned && minute.hits > 2 * minute.limit;
    const until = new Date(now.getTime() + BAN_MS);
    const bannedUntil = overThreshold ? await banApiKey(caller.keyId, until, now, minute.window.start) : caller.bannedUntil;
    if (overThreshold && bannedUntil) logger().warn({ keyId: String(caller.keyId), until: bannedUntil }, "api key temporarily banned");
    // Counted once per ban: by the request whose write put it in force (the others find it there, with its own end).
    if (overThreshold && bannedUntil?.getTime() === until.getTime()) metrics().keysBanned.inc({ plan: caller.plan });
    if (bannedUntil && bannedUntil > now) {
      const wait = seconds(bannedUntil.getTime() - now.getTime());
      metrics().rateLimited.inc({ plan: caller.plan, code: "key_temporarily_banned" });
      return {
        headers: { ...describe(states, bind, now, 0), "Retry-After": String(wait) },
        error: new ApiError(
          429,
          "key_temporarily_banned",
          `This API key is banned until ${bannedUntil.toISOString()} for continuing to send requests while rate limited. Back off and retry after ${wait} seconds.`,
        ),
      };
    }
  }

  const exceeded = states.filter((s) => s.hits > s.limit);
  if (exceeded.length) {
    // Wait for the exceeded window that reopens last: retrying earlier fails.
    const blocking = exceeded.reduce((a, b) => (b.window.end > a.window.end ? b : a));
    const wait = seconds(blocking.window.end.getTime() - now.getTime());
    const whose = blocking.name.startsWith("address-") ? " from your network address" : "";
    metrics().rateLimited.inc({ plan: caller.plan, code: "rate_limited" });
    return {
      headers: { ...describe(states, blocking, now, 0), "Retry-After": String(wait) },
      error: new ApiError(
        429,
        "rate_limited",
        `Rate limit exceeded: ${blocking.limit} requests per ${blocking.window.name}${whose}. Retry after ${wait} seconds, backing off exponentially if you are limited again.`,
      ),
    };
  }
  return { headers: describe(states, bind, now) };
}
