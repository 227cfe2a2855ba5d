import { createHash } from "node:crypto";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { counterStore } from "@/lib/rate-limit/shared-store";
import { windowAt, type WindowName } from "@/lib/rate-limit/windows";

// Budgets of the forms that send email to an address anyone can type
// (applying, alerts): so many an hour or a day per email address, and per
// browser network. They count in the same shared counters as the rate limit.

export interface Budget {
  who: "address" | "email";
  window: WindowName;
  limit: number;
}

/** An email's counter name: a short hash, so no counter (in Redis or PostgreSQL) holds an address. */
export const emailCounterKey = (email: string) => createHash("sha256").update(email).digest("base64url").slice(0, 22);

/**
 * Spends one of each budget that binds the request, or throws 429 with
 * Retry-After until the last exceeded window ends. `keys.address` null: a
 * partner's request, bound by the email budgets only (its server asks for
 * all of its users; its key's rate limit bounds it). `refusal` words the
 * message, given whether an email budget is over and how long to wait.
 */
export async function spendBudgets(
  budgets: Budget[],
  keys: { address: string | null; email: string },
  now: Date,
  refusal: (overForEmail: boolean, wait: string) => string,
): Promise<void> {
  // Off with the rest of the limiter (benchmarks, and tests that are not about it).
  if (!env().RATE_LIMIT_ENABLED) return;
  const binding = budgets.filter((b) => b.who === "email" || keys.address !== null);
  const counters = binding.map((b) => ({ rateKey: b.who === "email" ? keys.email : keys.address!, window: windowAt(b.window, now) }));
  const counts = await counterStore().hit(counters);
  const over = binding.map((b, i) => ({ ...b, window: counters[i]!.window, count: counts[i]! })).filter((b) => b.count > b.limit);
  if (over.length === 0) return;
  const until = Math.max(...over.map((b) => b.window.end.getTime()));
  const retryAfter = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
  const wait = retryAfter >= 3600 ? `${Math.ceil(retryAfter / 3600)} hours` : `${Math.ceil(retryAfter / 60)} minutes`;
  throw new ApiError(429, "rate_limited", refusal(over.some((b) => b.who === "email"), wait), undefined, { "Retry-After": String(retryAfter) });
}
