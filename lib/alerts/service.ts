import { randomBytes } from "node:crypto";
import { DEFAULT_LOCALE } from "@/lib/i18n/locales";
import { translatorFor } from "@/lib/i18n/translator";
import { categoryLabel } from "@/lib/i18n/words";
import type { Locale } from "@/lib/i18n/locales";
import { db } from "@/lib/db";
import { ApiError, notFound } from "@/lib/core/errors";
import { hashToken } from "@/lib/keys/tokens";
import { addressRateKey } from "@/lib/core/client";
import { inboxOf } from "@/lib/mail/inbox";
import { sealToken } from "@/lib/mail/sealed-token";
import { categoryExists } from "@/lib/pets/queries/lookups";
import { nearSchema, withinSchema, WITHIN_DEFAULT } from "@/lib/organizations/geo";
import { resolveNear } from "@/lib/organizations/zip";
import { databaseKnowsTimeZone } from "@/lib/organizations/queries";
import type { GoodWithKind } from "@/lib/pets/profile";
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from "@/lib/pets/profile-labels";
import { emailCounterKey, spendBudgets, type Budget } from "@/lib/rate-limit/budgets";
import * as queries from "@/lib/alerts/queries";
import { ALERTS_PER_EMAIL, type AlertFilters, type AlertPatch, type AlertView, type NewAlert } from "@/lib/alerts/schemas";

// Alerts ("Email me new matches", issue 27): created by anyone for any
// address, so nothing happens until the link sent to that address is
// opened (double opt-in); the answer to creating one is the same whether or
// not the address had alerts. The link's token is never stored as it is
// (its hash finds the alert; a sealed copy goes into later emails). The
// email address stays in this room and its mail: never in a log line, an
// event, a webhook or a metric.

/** Alert links are stored as base64url SHA-256, as application links are (the keys' and sessions' are hex). */
export const hashAlertToken = (token: string) => hashToken(token, "base64url");

/**
 * Confirmation emails one inbox may be sent (counted as the inbox sees the
 * address: `+tags` and Gmail's dots are one inbox), per hour and per day,
 * and alerts one browser's network address, or one partner's key, may
 * create: a person trying two or three searches fits; a script mailing
 * strangers does not. A browser is bound by its network's budget; a
 * partner's server, which creates for all of its users from a few
 * addresses, by its key's instead.
 */
export const ALERT_BUDGETS: Budget[] = [
  { who: "email", window: "hour", limit: 3 },
  { who: "email", window: "day", limit: 6 },
  { who: "address", window: "hour", limit: 20 },
  { who: "key", window: "hour", limit: 100 },
  { who: "key", window: "day", limit: 1_000 },
];

/** The counter a partner's key spends its alert budget on. */
export const alertKeyCounter = (keyId: bigint) => `alert-key:${keyId}`;

const OVER: Record<Budget["who"], string> = { email: "for this email address", address: "from this network", key: "from this API key" };

function spendAlertBudget(context: CreateContext, email: string): Promise<void> {
  const { address, keyId, now } = context;
  return spendBudgets(
    ALERT_BUDGETS,
    {
      address: address === null ? null : `alert-address:${addressRateKey(address)}`,
      email: `alert-email:${emailCounterKey(email)}`,
      key: keyId === null ? null : alertKeyCounter(keyId),
    },
    now,
    (over, wait) => `Too many alerts ${OVER[over]} for now. Please try again in ${wait}.`,
  );
}

const GOOD_WITH_BIT: Record<GoodWithKind, number> = { children: 1, dogs: 2, cats: 4 };

/** Decimals a `near` point is kept to: about 1 km, enough to match shelters, not to find a doorstep. */
export const NEAR_DECIMALS = 2;

/** `near` as it is stored: a point rounded to NEAR_DECIMALS, a ZIP code (a public, coarse centre) as it is. */
function storedNear(near: string): string {
  const parsed = nearSchema.parse(near);
  if (parsed.kind !== "point") return near;
  const round = (degrees: number) => Math.round(degrees * 10 ** NEAR_DECIMALS) / 10 ** NEAR_DECIMALS + 0;
  return `${round(parsed.lat)},${round(parsed.lng)}`;
}

export interface CreateContext {
  /** The client's address for the per-address budget; null for a partner's key (see ALERT_BUDGETS). */
  address: string | null;
  /** A partner's key, for its own budget; null for a browser. */
  keyId: bigint | null;
  now: Date;
}

export const CONFIRMATION_SENT = {
  status: "confirmation_sent" as const,
  message: "Check your email: we sent you a link to confirm this alert. Nothing is sent until you open it.",
};

/**
 * Creates an unconfirmed alert and queues its confirmation email. Checks
 * come before any budget is spent (a request naming a made-up category or
 * place costs nobody anything); then the per-address cap, then the budgets.
 */
export async function createAlert(input: NewAlert, context: CreateContext): Promise<typeof CONFIRMATION_SENT> {
  const f = input.filters.near === undefined ? input.filters : { ...input.filters, near: storedNear(input.filters.near) };
  const near =
    f.near === undefined
      ? null
      : await resolveNear(nearSchema.parse(f.near), f.within === undefined ? undefined : withinSchema.parse(f.within)).catch((error: unknown) => {
          // The list names the field `near`; here it sits in the filters.
          if (error instanceof ApiError)
            throw new ApiError(error.status, error.code, error.message, [
              { field: "filters.near", issue: error.details?.[0]?.issue ?? "names no known place" },
            ]);
          throw error;
        });
  if (f.categoryId !== undefined && !(await categoryExists(f.categoryId))) {
    throw new ApiError(400, "unknown_category", `There is no category with id ${f.categoryId}. GET /v1/categories lists them.`, [
      { field: "filters.categoryId", issue: "does not name an existing category" },
    ]);
  }
  if (!(await databaseKnowsTimeZone(input.timeZone))) {
    throw new ApiError(400, "invalid_body", "The request body is invalid.", [
      { field: "timeZone", issue: "is not a time zone we know; use an IANA name such as America/Chicago" },
    ]);
  }
  const inbox = inboxOf(input.email);
  if ((await queries.countAlertsOfInbox(inbox)) >= ALERTS_PER_EMAIL) {
    throw new ApiError(
      409,
      "too_many_alerts",
      `This email address already has ${ALERTS_PER_EMAIL} alerts, the most one address may have. Delete one (the Manage link in any of its emails) to make room.`,
    );
  }
  await spendAlertBudget(context, input.email);
  const token = randomBytes(32).toString("base64url");
  await queries.insertAlertWithConfirmation({
    email: input.email,
    inbox,
    tokenHash: hashAlertToken(token),
    sealedToken: sealToken(token),
    frequency: input.frequency,
    timeZone: input.timeZone,
    locale: input.locale ?? DEFAULT_LOCALE,
    filters: f,
    categoryId: f.categoryId ?? null,
    sex: f.sex ?? null,
    size: f.size ?? null,
    ageGroup: f.ageGroup ?? null,
    goodWithMask: (f.goodWith ?? []).reduce((m, k) => m | GOOD_WITH_BIT[k], 0),
    search: f.q ?? null,
    near: near ? { lat: near.point.lat, lng: near.point.lng, chord: near.maxChord } : null,
    now: context.now,
  });
  return CONFIRMATION_SENT;
}

/** "s…@example.org": enough for its owner to recognise, not to read. */
export function emailHint(email: string): string {
  const at = email.lastIndexOf("@");
  return at <= 0 ? "…" : `${email[0]}…${email.slice(at)}`;
}

/** "25mi" as people read it: "25 mi". */
function distanceWords(within: string | undefined): string {
  if (within === undefined) return `${WITHIN_DEFAULT.value} ${WITHIN_DEFAULT.unit}`;
  const m = /^\s*([0-9.]+)\s*(km|mi)\s*$/i.exec(within);
  return m ? `${m[1]} ${m[2]!.toLowerCase()}` : within;
}

/**
 * The filters in words: "Dogs · small · good with children · within 25 mi of
 * 60601". A radius without its place (the dashboard's) is "within 25 mi".
 * `nameSearch: "unnamed"` says "a name search" instead of the text typed:
 * mail to an address nobody has confirmed yet must not carry a stranger's
 * free text (the service's own domain would relay any sentence to anyone).
 */
export function describeFilters(
  f: AlertFilters,
  category: string | null,
  { nameSearch = "shown", locale = "en" }: { nameSearch?: "shown" | "unnamed"; /** The emails' language (the alert's). */ locale?: Locale } = {},
): string {
  if (locale !== "en") {
    // The same parts in another language: the fixed words from the messages,
    // lists joined as that language does (Intl.ListFormat).
    const t = translatorFor(locale, "AlertMail");
    const words = translatorFor(locale, "Words");
    const and = new Intl.ListFormat(locale, { type: "conjunction" });
    const lower = (word: string) => word.toLocaleLowerCase(locale);
    const distance = distanceWords(f.within);
    return [
      category !== null ? categoryLabel(words, category) : f.categoryId !== undefined ? t("categoryNumber", { id: f.categoryId }) : t("allAnimals"),
      f.sex && lower(words(`sex.${f.sex}`)),
      f.size && lower(words(`size.${f.size}`)),
      f.ageGroup && lower(words(`age.${f.ageGroup}`)),
      f.goodWith?.length ? t("goodWith", { kinds: and.format(f.goodWith.map((k) => lower(words(`goodWith.${k}`)))) }) : undefined,
      f.q === undefined ? undefined : nameSearch === "shown" ? t("namedLike", { q: f.q }) : t("aNameSearch"),
      f.near !== undefined ? t("withinOf", { distance, place: f.near }) : f.within !== undefined ? t("within", { distance }) : undefined,
    ]
      .filter(Boolean)
      .join(" · ");
  }
  const parts = [
    category ?? (f.categoryId !== undefined ? `Category ${f.categoryId}` : "All animals"),
    f.sex && SEX_LABELS[f.sex].toLowerCase(),
    f.size && SIZE_LABELS[f.size].toLowerCase(),
    f.ageGroup && AGE_LABELS[f.ageGroup].toLowerCase(),
    f.goodWith?.length ? `good with ${f.goodWith.join(" and ")}` : undefined,
    f.q === undefined ? undefined : nameSearch === "shown" ? `named like “${f.q}”` : "a name search",
    f.near !== undefined ? `within ${distanceWords(f.within)} of ${f.near}` : f.within !== undefined ? `within ${distanceWords(f.within)}` : undefined,
  ];
  return parts.filter(Boolean).join(" · ");
}

async function toView(row: queries.AlertViewRow): Promise<AlertView> {
  const filters = row.filters as AlertFilters;
  return {
    status: row.status,
    frequency: row.frequency,
    timeZone: row.timeZone,
    filters,
    description: describeFilters(filters, row.categoryId === null ? null : await queries.categoryName(row.categoryId)),
    emailHint: emailHint(row.email),
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
  };
}

const noSuchAlert = () =>
  notFound("There is no alert at this link: it may have been deleted, or it was not confirmed within 7 days. Check that the whole link was copied.");

/** The alert's private page: opening it counts as a sign of life (the 12-month renewal starts over). */
export async function alertByToken(token: string, now: Date): Promise<AlertView> {
  const row = await queries.findAlertByTokenHash(hashAlertToken(token));
  if (!row) throw noSuchAlert();
  if (row.status !== "unconfirmed") await queries.noteOpened(row.id, now);
  return toView(row);
}

/** Double opt-in's second step (idempotent). */
export async function confirmAlert(token: string, now: Date): Promise<AlertView> {
  const row = await queries.confirmByTokenHash(hashAlertToken(token), now);
  if (!row) throw noSuchAlert();
  return toView(row);
}

export async function patchAlert(token: string, patch: AlertPatch, now: Date): Promise<AlertView> {
  const row = await queries.setPausedByTokenHash(hashAlertToken(token), patch.paused, now);
  if (!row) throw noSuchAlert();
  if (row.status === "unconfirmed") throw new ApiError(409, "not_confirmed", "This alert is not confirmed yet: confirm it first (open the link in its email).");
  return toView(row);
}

export async function deleteAlert(token: string): Promise<void> {
  if ((await queries.deleteByTokenHash(hashAlertToken(token))) === 0) throw noSuchAlert();
}

/**
 * An unsubscribe by mail (List-Unsubscribe's mailto, "unsubscribe alert N"),
 * as an operator honours it: alert `id` goes, with what waited, only if it
 * is sent to the inbox `sender` reaches (the From: of that email, whose
 * DKIM/DMARC alignment the operator checked). Nothing else of that person
 * is touched. Whether it did.
 */
export async function deleteAlertForSender(id: number, sender: string): Promise<boolean> {
  return (await queries.deleteByIdAndInbox(BigInt(id), inboxOf(sender))) > 0;
}

/** RFC 8058 one-click: the alert and whatever it had waiting go; an unknown link is already unsubscribed. */
export async function unsubscribeAlert(token: string): Promise<{ status: "unsubscribed" }> {
  await queries.deleteByTokenHash(hashAlertToken(token));
  return { status: "unsubscribed" };
}

/** Everything held about one person's alerts (by email, any case), for a subject access request. */
export async function exportAlerts(email: string) {
  const rows = await db().alert.findMany({
    where: { email: email.trim().toLowerCase() },
    orderBy: { id: "asc" },
    select: {
      id: true,
      email: true,
      status: true,
      frequency: true,
      timeZone: true,
      filters: true,
      consentAt: true,
      createdAt: true,
      confirmedAt: true,
      lastSentAt: true,
      lastOpenedAt: true,
      renewalSentAt: true,
      _count: { select: { matches: true } },
    },
  });
  return rows.map(({ _count, ...r }) => ({
    ...r,
    id: Number(r.id),
    consentAt: r.consentAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    confirmedAt: r.confirmedAt?.toISOString() ?? null,
    lastSentAt: r.lastSentAt?.toISOString() ?? null,
    lastOpenedAt: r.lastOpenedAt?.toISOString() ?? null,
    renewalSentAt: r.renewalSentAt?.toISOString() ?? null,
    animalsFound: _count.matches,
  }));
}

/** Erasure on request: the person's alerts go, with their matches (nothing else holds the address). Returns how many. */
export async function eraseAlerts(email: string): Promise<number> {
  return db().$executeRaw`DELETE FROM alerts WHERE email = ${email.trim().toLowerCase()}`;
}
