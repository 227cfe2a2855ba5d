import { createHash } from "node:crypto";
import { ApiError } from "@/lib/core/errors";
import type { Caller } from "@/lib/sessions/caller";
import { CONNECTION_TEST_BUDGETS } from "@/lib/listings/uploads/schemas";
import { logger } from "@/lib/log";
import { counterStore } from "@/lib/rate-limit/shared-store";
import { CounterStoreUnavailable } from "@/lib/rate-limit/store";
import { windowAt, type WindowName } from "@/lib/rate-limit/windows";

// The connection test's budgets. Each test logs in at an FTP server from the
// service's one address, with whatever user name and password the caller
// sends: without a budget it is a password oracle for any shelter's account
// (and the sites' bans for too many failed logins would hit every shelter
// behind our address). Every test is counted before it connects, so a burst
// of parallel ones cannot slip in before the first is counted:
//   - per organisation (a platform caller: per key or session), and
//   - per account tried, whoever tries it: the user name (lower-cased: some
//     servers ignore case) at the host as typed and at the address we
//     connect to (another name or the bare address of the same server is
//     the same account).
// The counters are the rate limiter's (PostgreSQL or Redis, shared by every
// instance) and hold no user name or host, only a hash. Unlike the rate
// limit they stay on when RATE_LIMIT_ENABLED is off: they protect other
// people's accounts, not our capacity.

const hashOf = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("base64url").slice(0, 22);

interface Counted {
  rateKey: string;
  window: WindowName;
  limit: number;
  who: "organization" | "account";
}

/** Spends one test of each budget, or throws 429 rate_limited with Retry-After until the last exceeded window ends. */
export async function spendConnectionTest(caller: Caller, account: { host: string; address: string; username: string }, now: Date): Promise<void> {
  const owner = caller.tenancy.kind === "organization" ? `org:${caller.tenancy.organizationId}` : `caller:${caller.rateKey}`;
  const user = account.username.toLowerCase();
  const accounts = [...new Set([hashOf(account.host.toLowerCase(), user), hashOf(account.address, user)])];
  const { organization, account: perAccount } = CONNECTION_TEST_BUDGETS;
  const counted: Counted[] = [
    { rateKey: `ftp-test:${owner}`, window: "hour", limit: organization.perHour, who: "organization" },
    ...accounts.flatMap((hash): Counted[] => [
      { rateKey: `ftp-test:account:${hash}`, window: "hour", limit: perAccount.perHour, who: "account" },
      { rateKey: `ftp-test:account:${hash}`, window: "day", limit: perAccount.perDay, who: "account" },
    ]),
  ];
  const windows = counted.map((c) => windowAt(c.window, now));
  let counts: number[];
  try {
    counts = await counterStore().hit(counted.map((c, i) => ({ rateKey: c.rateKey, window: windows[i]! })));
  } catch (error) {
    // Never a test uncounted: without the store, no test at all.
    logger().error({ err: error instanceof CounterStoreUnavailable ? error.cause : error }, "connection test budget: the counter store is unavailable");
    throw new ApiError(503, "service_unavailable", "The service is temporarily unavailable. Please retry shortly.", undefined, { "Retry-After": "5" });
  }
  const over = counted.map((c, i) => ({ ...c, end: windows[i]!.end.getTime(), count: counts[i]! })).filter((c) => c.count > c.limit);
  if (over.length === 0) return;
  const retryAfter = Math.max(1, Math.ceil((Math.max(...over.map((c) => c.end)) - now.getTime()) / 1000));
  const wait = retryAfter >= 3600 ? `${Math.ceil(retryAfter / 3600)} hours` : `${Math.ceil(retryAfter / 60)} minutes`;
  const message = over.some((c) => c.who === "account")
    ? `This FTP account has been tried too often (at most ${perAccount.perHour} tests an hour and ${perAccount.perDay} a day, whoever tries): try again in ${wait}. Saving the site does not need a test.`
    : `Your organisation has made too many connection tests (at most ${organization.perHour} an hour): try again in ${wait}.`;
  throw new ApiError(429, "rate_limited", message, undefined, { "Retry-After": String(retryAfter) });
}
