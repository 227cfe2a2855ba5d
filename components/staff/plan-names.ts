import type { Plan } from "@/lib/keys/plans";

export const PLAN_NAMES: Record<Plan, string> = { free: "Free", pro: "Pro", business: "Business", enterprise: "Enterprise" };
