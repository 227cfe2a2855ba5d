import { createHash } from "node:crypto";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/core/errors";
import { inboxOf } from "@/lib/mail/inbox";
import { counterStore } from "@/lib/rate-limit/shared-store";
import { windowAt, type WindowName } from "@/lib/rate-limit/windows";

// Budgets of the forms that send email to an address anyone can type
// (applying, alerts): so many an hour or a day per email address (as its
// inbox sees it), per browser network, and per API key. They count in the
// same shared counters as the rate limit.

export interface Budget {
  /** "address": a browser's network; "email": the inbox mail goes to; "key": a partner's API key. */
  who: "address" | "email" | "key";
  window: WindowName;
  limit: number;
}

/**
 * An email's counter name: its inbox (lib/mail/inbox.ts: `+tags` and
 * Gmail's dots make one inbox, not many), hashed short, so no counter (in
 * Redis or PostgreSQL) holds an address.
 */
export const emailCounterKey = (email: string) => createHash("sha256").update(inboxOf(email)).digest("base64url").slice(0, 22);

/**
 * Spends one of each budget that binds the request, or throws 429 with
 * Retry-After until the last exceeded window ends. Each budget binds when
 * its counter is named: `keys.address` is null for a partner's request (its
 * server asks for all of its users: its key's budgets bind it instead),
 * `keys.key` null or absent for a browser's. `refusal` words the message,
 * given which kind of budget is over (the email's first) and how long to wait.
 */
export async function spendBudgets(
  budgets: Budget[],
  keys: { address: string | null; email: string; key?: string | null },
  now: Date,
  refusal: (over: Budget["who"], wait: string) => string,
): Promise<void> {
  // Off with the rest of the limiter (benchmarks, and tests that are not about it).
  if (!env().RATE_LIMIT_ENABLED) return;
  const counterOf = (b: Budget) => (b.who === "email" ? keys.email : b.who === "key" ? keys.key : keys.address);
  const binding = budgets.filter((b) => counterOf(b) != null);
  const counters = binding.map((b) => ({ rateKey: counterOf(b)!, window: windowAt(b.window, now) }));
  const counts = await counterStore().hit(counters);
  const over = binding.map((b, i) => ({ ...b, window: counters[i]!.window, count: counts[i]! })).filter((b) => b.count > b.limit);
  if (over.length === 0) return;
  const until = Math.max(...over.map((b) => b.window.end.getTime()));
  const retryAfter = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
  const wait = retryAfter >= 3600 ? `${Math.ceil(retryAfter / 3600)} hours` : `${Math.ceil(retryAfter / 60)} minutes`;
  const which = over.find((b) => b.who === "email")?.who ?? over[0]!.who;
  throw new ApiError(429, "rate_limited", refusal(which, wait), undefined, { "Retry-After": String(retryAfter) });
}
