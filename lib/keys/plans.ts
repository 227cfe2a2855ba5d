// The plans of spec section 8, in one table. Enterprise figures are per key
// (set when the key is created); the numbers here are its fallback.

export const PLANS = ["free", "pro", "business", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

export interface Limits {
  perMinute: number;
  perDay: number;
}

export const PLAN_LIMITS: Record<Plan, Limits> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: { perMinute: 1_000, perDay: 100_000 },
};

/** The plans an organisation's own staff issue keys on: enterprise, and custom limits, are the platform's decision. */
export const ORGANIZATION_PLANS: readonly Plan[] = ["free", "pro", "business"];

/** Live (not revoked) keys an organisation's own staff may hold at once: more is the platform's decision. */
export const LIVE_KEYS_PER_ORGANIZATION = 20;

/** The limits in force for a key: its own figures on Enterprise, the plan's otherwise. */
export function limitsFor(plan: Plan, custom?: { perMinute: number | null; perDay: number | null }): Limits {
  const base = PLAN_LIMITS[plan];
  if (plan !== "enterprise" || !custom) return base;
  return { perMinute: custom.perMinute ?? base.perMinute, perDay: custom.perDay ?? base.perDay };
}
