import { z } from "zod";
import { PLANS } from "@/lib/keys/plans";

/**
 * What a caller may do. API keys carry KEY_SCOPES (the pets scopes,
 * webhooks:manage for the endpoints a key registers, and
 * applications:write to forward an adopter's application); staff sessions
 * also manage keys, read the audit trail and handle applications, which no
 * key can hold (applications are personal data: keys never read them).
 */
export const SCOPES = [
  "pets:read",
  "pets:write",
  "webhooks:manage",
  "applications:write",
  "organizations:manage",
  "listings:manage",
  "keys:manage",
  "audit:read",
  "applications:manage",
  "records:read",
  "records:write",
  "people:read",
  "people:write",
] as const;
export type Scope = (typeof SCOPES)[number];
/**
 * organizations:manage: a platform key adds organisations and changes any;
 * an organisation's key changes its own organisation's profile.
 */
/** listings:manage: an organisation's listing-site accounts (Petfinder, Adopt-a-Pet, RescueGroups) and their uploads. */
/** records:read / records:write: the organisation's records of its animals' stays (intakes and outcomes, issue 42). */
/** people:read / people:write: the organisation's people (fosters): personal data, given to a key only on purpose. */
export const KEY_SCOPES = [
  "pets:read",
  "pets:write",
  "webhooks:manage",
  "applications:write",
  "organizations:manage",
  "listings:manage",
  "records:read",
  "records:write",
  "people:read",
  "people:write",
] as const;

/**
 * What each key scope lets a key do, in a few words. KEY_SCOPES (the list the API checks) is the one
 * list every other list derives from: the CLI's `keys create --help`, the staff keys page and the
 * OpenAPI document's bearerAuth. A scope added to KEY_SCOPES shows everywhere by itself, by its name
 * alone until it has a line here.
 */
export const KEY_SCOPE_DESCRIPTIONS: Partial<Record<string, string>> = {
  "pets:read": "Read animals",
  "pets:write": "Add animals",
  "webhooks:manage": "Register webhooks",
  "applications:write": "Forward adoption applications",
  "organizations:manage": "Edit the shelter's profile",
  "listings:manage": "Manage listing-site uploads",
  "records:read": "Read stays and the monthly report",
  "records:write": "Record intakes and outcomes",
  "people:read": "Read the shelter's people (fosters' names and homes)",
  "people:write": "Add and change the shelter's people",
};

/** A scope as people read it: "Read animals (pets:read)", or the scope's name when it has no description. */
export function describeKeyScope(scope: string): string {
  const description = KEY_SCOPE_DESCRIPTIONS[scope];
  return description ? `${description} (${scope})` : scope;
}

export const planSchema = z.enum(PLANS);
export const scopeSchema = z.enum(KEY_SCOPES);

const quota = z.number().int().min(1, "must be at least 1").max(100_000_000, "must be at most 100000000");

export const newApiKeySchema = z
  .strictObject({
    name: z.string().trim().min(1, "must not be blank").max(100, "must be at most 100 characters"),
    plan: planSchema.default("free"),
    scopes: z.array(scopeSchema).min(1, "needs at least one scope").default(["pets:read", "pets:write"]),
    perMinute: quota.optional(),
    perDay: quota.optional(),
    /**
     * Whose key it is. Staff of an organisation issue their own
     * organisation's keys (this may be left out); a platform admin names the
     * organisation, or asks for a platform key.
     */
    organizationId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    platform: z.boolean().optional(),
  })
  .superRefine((key, ctx) => {
    if (key.platform && key.organizationId !== undefined) {
      ctx.addIssue({ code: "custom", path: ["platform"], message: "a key is either an organisation's (organizationId) or a platform key, not both" });
    }
    const custom = key.perMinute !== undefined || key.perDay !== undefined;
    if (custom && key.plan !== "enterprise") {
      ctx.addIssue({ code: "custom", path: ["plan"], message: "custom per-minute/per-day figures are only for the enterprise plan" });
    }
    if (key.plan === "enterprise" && (key.perMinute === undefined || key.perDay === undefined)) {
      ctx.addIssue({ code: "custom", path: ["perMinute"], message: "the enterprise plan needs both per-minute and per-day figures" });
    }
  });
export type NewApiKey = z.infer<typeof newApiKeySchema>;

export const keyIdParamsSchema = z.object({
  keyId: z
    .string()
    .regex(/^[0-9]+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(Number.MAX_SAFE_INTEGER, "is too large")),
});

/** What staff see of a key: never the hash, never the key. */
export const apiKeySummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  display: z.string().meta({ description: "prefix…last four, to tell keys apart", example: "pk_live_…a1B2" }),
  plan: planSchema,
  scopes: z.array(scopeSchema),
  organizationId: z.number().int().nullable().meta({ description: "The organisation whose key it is; null for a platform key." }),
  perMinute: z.number().int(),
  perDay: z.number().int(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  bannedUntil: z.string().nullable(),
  /** Requests counted today (UTC), when the caller asked for usage. */
  usedToday: z.number().int().optional(),
});
export type ApiKeySummary = z.infer<typeof apiKeySummarySchema>;
