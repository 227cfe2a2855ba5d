import { runInBackground } from "@/lib/background";
import { env } from "@/lib/env";
import { ApiError, notFound } from "@/lib/core/errors";
import { LIVE_KEYS_PER_ORGANIZATION, ORGANIZATION_PLANS, limitsFor, type Limits, type Plan } from "@/lib/keys/plans";
import * as queries from "@/lib/keys/queries";
import type { ApiKeySummary, KEY_SCOPES, NewApiKey, Scope } from "@/lib/keys/schemas";
import { KEY_PATTERN, generateKey, hashToken } from "@/lib/keys/tokens";
import { cacheGeneration, cacheKey, cachedKey, forgetKey, KEY_CHANNEL } from "@/lib/keys/cache";
import { db } from "@/lib/db";
import { usageToday } from "@/lib/rate-limit/shared-store";
import { organizationExists } from "@/lib/organizations/queries";
import { forbidden, mayManage, organizationForCreate, organizationScope, unknownOrganization, type Tenancy } from "@/lib/organizations/tenancy";

/** What a request authenticated by an API key knows about its caller. */
export interface KeyPrincipal {
  keyId: bigint;
  plan: Plan;
  scopes: Scope[];
  limits: Limits;
  bannedUntil: Date | null;
  /** null: a platform key. */
  organizationId: bigint | null;
}

function summarise(row: queries.ApiKeyRow): ApiKeySummary {
  const limits = limitsFor(row.plan, row);
  return {
    id: Number(row.id),
    name: row.name,
    display: `${row.prefix}…${row.last4}`,
    plan: row.plan,
    scopes: row.scopes as (typeof KEY_SCOPES)[number][],
    organizationId: row.organizationId === null ? null : Number(row.organizationId),
    perMinute: limits.perMinute,
    perDay: limits.perDay,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    bannedUntil: row.bannedUntil?.toISOString() ?? null,
  };
}

/**
 * Whose a new key is, from who asks: an organisation's staff issue their
 * own organisation's keys; a platform admin names the organisation or asks
 * for a platform key (it belongs to none, so it must say which).
 */
export async function ownerOfNewKey(tenancy: Tenancy, input: Pick<NewApiKey, "organizationId" | "platform">): Promise<bigint | null> {
  if (input.platform) {
    if (tenancy.kind !== "platform") throw forbidden("Only platform admins issue platform keys.");
    return null;
  }
  if (tenancy.kind === "platform" && input.organizationId === undefined) {
    throw new ApiError(400, "invalid_body", "Say whose key it is: organizationId for an organisation's key, or platform: true for a platform key.", [
      { field: "organizationId", issue: "is required (or platform: true)" },
    ]);
  }
  const organizationId = organizationForCreate(tenancy, input.organizationId, "key");
  if (!(await organizationExists(organizationId))) throw unknownOrganization(organizationId);
  return BigInt(organizationId);
}

/**
 * Issues a key for `organizationId` (null: a platform key). The plaintext is
 * returned once, here, and never stored. `liveCap`: refuse (409) when the
 * organisation already has that many live keys, counted under a lock on its
 * row so two concurrent issues cannot both pass at the cap.
 */
export async function createApiKey(
  input: NewApiKey,
  organizationId: bigint | null,
  { liveCap }: { liveCap?: number } = {},
): Promise<{ key: string; summary: ApiKeySummary }> {
  const key = generateKey(env().API_KEY_MODE);
  const row = await db().$transaction(async (tx) => {
    if (liveCap !== undefined && organizationId !== null && (await queries.lockOrganizationAndCountLiveKeys(tx, organizationId)) >= liveCap) {
      throw new ApiError(
        409,
        "too_many_keys",
        `This organisation already has ${liveCap} live API keys, the most its staff may issue. Revoke one it no longer uses (or ask the people who run the service for more).`,
      );
    }
    return queries.insertApiKey(
      {
        name: input.name,
        prefix: key.slice(0, 8),
        hash: hashToken(key),
        last4: key.slice(-4),
        plan: input.plan,
        scopes: input.scopes,
        perMinute: input.perMinute,
        perDay: input.perDay,
        organizationId,
      },
      tx,
    );
  });
  return { key, summary: summarise(row) };
}

/**
 * A key issued through the API (POST /v1/keys): whose it is (ownerOfNewKey),
 * and, for an organisation's own staff, only on free, pro or business,
 * without custom limits, and while it has fewer than
 * LIVE_KEYS_PER_ORGANIZATION live keys. Plans and limits beyond are the
 * platform's decision: its admins (and the CLI) issue any.
 */
export async function issueApiKey(input: NewApiKey, tenancy: Tenancy): Promise<{ key: string; summary: ApiKeySummary }> {
  const owner = await ownerOfNewKey(tenancy, input);
  if (tenancy.kind === "platform") return createApiKey(input, owner);
  if (!ORGANIZATION_PLANS.includes(input.plan) || input.perMinute !== undefined || input.perDay !== undefined) {
    throw forbidden(
      `An organisation's staff issue keys on the ${ORGANIZATION_PLANS.join(", ")} plans, with their standard limits: the enterprise plan and custom limits are set by the people who run the service.`,
    );
  }
  return createApiKey(input, owner, { liveCap: LIVE_KEYS_PER_ORGANIZATION });
}

/** One organisation's keys (`organizationId`), or all of them. */
export async function listApiKeys(organizationId?: number): Promise<ApiKeySummary[]> {
  return (await queries.findApiKeys(organizationId)).map(summarise);
}

/** For staff: their organisation's keys (every key for a platform admin) with the requests counted against each today (UTC). */
export async function listApiKeysWithUsage(now: Date, organizationId?: number): Promise<ApiKeySummary[]> {
  const keys = await listApiKeys(organizationId);
  const usage = await usageToday(
    keys.map((k) => k.id),
    now,
  );
  return keys.map((k) => ({ ...k, usedToday: usage.get(k.id) ?? 0 }));
}

/**
 * Tells every instance that a key changed, so none keeps serving it from
 * its cache (lib/keys/cache.ts); this process forgets it at once too.
 */
export async function announceKeyChange(id: bigint): Promise<void> {
  forgetKey(id);
  await db().$executeRaw`SELECT pg_notify(${KEY_CHANNEL}, ${String(id)})`;
}

/** Revokes one of the caller's organisation's keys (any key, for the platform and the CLI); revoking it again changes nothing. */
export async function revokeApiKey(id: number, tenancy: Tenancy): Promise<ApiKeySummary> {
  const row = await queries.updateApiKey(id, { revokedAt: new Date() }, { organizationId: organizationScope(tenancy), liveOnly: true });
  if (row) {
    await announceKeyChange(row.id);
    return summarise(row);
  }
  const existing = await queries.findApiKeyById(id);
  if (!existing || !mayManage(tenancy, existing.organizationId === null ? null : Number(existing.organizationId))) throw notFound("API key", id);
  return summarise(existing);
}

export async function setApiKeyPlan(id: number, plan: Plan, custom?: { perMinute?: number; perDay?: number }): Promise<ApiKeySummary> {
  if (plan === "enterprise" && (custom?.perMinute === undefined || custom.perDay === undefined)) {
    throw new ApiError(400, "invalid_body", "The enterprise plan needs both per-minute and per-day figures.");
  }
  // The platform's decision (the CLI): any key.
  const row = await queries.updateApiKey(
    id,
    { plan, perMinute: plan === "enterprise" ? custom!.perMinute! : null, perDay: plan === "enterprise" ? custom!.perDay! : null },
    { organizationId: undefined },
  );
  if (!row) throw notFound("API key", id);
  await announceKeyChange(row.id);
  return summarise(row);
}

/** Bans a key for this rate-limit window's abuse (once per window; see banApiKeyOnce). Returns the ban in force, if any. */
export async function banApiKey(id: bigint, until: Date, now: Date, windowStart: Date): Promise<Date | null> {
  const inForce = await queries.banApiKeyOnce(id, until, now, windowStart);
  await announceKeyChange(id);
  return inForce;
}

/** Lifts the ban of one of the caller's organisation's keys (any key, for the platform and the CLI). */
export async function unbanApiKey(id: number, tenancy: Tenancy): Promise<ApiKeySummary> {
  const row = await queries.updateApiKey(id, { bannedUntil: null }, { organizationId: organizationScope(tenancy) });
  if (!row) throw notFound("API key", id);
  await announceKeyChange(row.id);
  return summarise(row);
}

const TOUCH_INTERVAL_MS = 60_000;

/** The principal of a key row, or null when it is revoked. */
function principalOf(row: queries.ApiKeyRow): KeyPrincipal | null {
  if (row.revokedAt) return null;
  return {
    keyId: row.id,
    plan: row.plan,
    scopes: row.scopes as Scope[],
    limits: limitsFor(row.plan, row),
    bannedUntil: row.bannedUntil,
    organizationId: row.organizationId,
  };
}

/**
 * The key behind a bearer token, or null when it is malformed, unknown or
 * revoked (the caller cannot tell which: all are "invalid"). Resolved keys
 * are cached for a few seconds and dropped on any change (lib/keys/cache.ts).
 */
export async function authenticateKey(token: string, now: Date): Promise<KeyPrincipal | null> {
  // Shape first: garbage never costs a database lookup. A key of the other
  // mode (pk_test_ on production, pk_live_ on staging) is refused as well:
  // a staging key that leaked into production config must not work there.
  if (!KEY_PATTERN.test(token) || !token.startsWith(`pk_${env().API_KEY_MODE}_`)) return null;
  const hash = hashToken(token);
  const at = Date.now();
  const generation = cacheGeneration();
  let entry = cachedKey<KeyPrincipal | null>(hash, at);
  if (!entry) {
    const row = await queries.findApiKeyByHash(hash);
    // Unknown hashes are not cached: anyone can make up endless new ones.
    if (!row) return null;
    entry = cacheKey(hash, row.id, principalOf(row), at, row.lastUsedAt?.getTime() ?? 0, generation);
  }
  const principal = entry.value;
  if (!principal) return null;
  // Bookkeeping off the request's critical path, and at most once a minute
  // per process (the statement itself is a no-op within the minute).
  if (now.getTime() - entry.touchedAt >= TOUCH_INTERVAL_MS) {
    entry.touchedAt = now.getTime();
    runInBackground("touch api key", () => queries.touchApiKey(principal.keyId));
  }
  return principal;
}
