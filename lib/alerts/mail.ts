import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { mailLinkOrigin } from "@/lib/mail/links";
import { logger } from "@/lib/log";
import { MailError, sendMail, type Mail } from "@/lib/mail/mailer";
import { openToken } from "@/lib/mail/sealed-token";
import { petView, toPet } from "@/lib/pets/present";
import { findPetById } from "@/lib/pets/queries/lookups";
import { localePath, type Locale } from "@/lib/i18n/locales";
import { mailLocale, translatorFor } from "@/lib/i18n/translator";
import type { Pet } from "@/lib/pets/schemas/pet";
import { describeFilters } from "@/lib/alerts/service";
import type { AlertFilters } from "@/lib/alerts/schemas";
import type { AlertMailJob } from "@/lib/alerts/queries";
import * as queries from "@/lib/alerts/queries";
import { animalsCondition, mayReadAnimal, THE_PUBLIC } from "@/lib/visibility/policy";

// Alerts' emails, all sent by jobs, never in a request:
//   - the confirmation (job 'alert-mail', queued with the alert),
//   - the matches (job 'send-alerts', every minute and right after a match):
//     "hourly" alerts get their first match at once and then at most one
//     email an hour with everything that waited; "daily" alerts one digest
//     at 08:00 in their time zone,
//   - the renewal question after 12 months untouched ('alert-mail' too).
// Each has a plain-text and an HTML part, a Manage link to /alerts/<token>
// and List-Unsubscribe (the one-click HTTPS URL, RFC 8058, and a mailto
// where ALERTS_UNSUBSCRIBE_MAILTO is set). The token is stored only hashed;
// the links come from its sealed copy (lib/mail/sealed-token.ts). Links
// start from configuration only (lib/mail/links.ts).

/** Animals listed in one email; more are counted and linked to the browse page. */
export const ANIMALS_PER_EMAIL = 20;
const HOUR_MS = 3_600_000;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

interface Links {
  manage: string;
  unsubscribe: string;
  browse: string;
}

function linksOf(base: string, sealedToken: string, filters: AlertFilters, locale: Locale): Links {
  const token = openToken(sealedToken);
  const browse = new URLSearchParams();
  if (filters.q) browse.set("q", filters.q);
  if (filters.near) browse.set("near", filters.near);
  if (filters.near && filters.within) browse.set("within", filters.within);
  if (filters.categoryId) browse.set("category", String(filters.categoryId));
  if (filters.sex) browse.set("sex", filters.sex);
  if (filters.size) browse.set("size", filters.size);
  if (filters.ageGroup) browse.set("age", filters.ageGroup);
  if (filters.goodWith?.length) browse.set("goodWith", filters.goodWith.join(","));
  const qs = browse.toString();
  // The site's pages in the alert's language ("/es/alerts/…"); the API's unsubscribe URL has none.
  return {
    manage: `${base}${localePath(locale, `/alerts/${token}`)}`,
    unsubscribe: `${base}/v1/alerts/${token}/unsubscribe`,
    browse: `${base}${localePath(locale, `/${qs ? `?${qs}` : ""}`)}`,
  };
}

/** RFC 2369 / RFC 8058 headers: the HTTPS URL a mail client POSTs to, and a mailto where one is configured. */
export function unsubscribeHeaders(links: Links, alertId: bigint): Record<string, string> {
  const mailto = env().ALERTS_UNSUBSCRIBE_MAILTO;
  // The mailto names the alert by its id (never its token: a mailbox is no place for a credential).
  const targets = [`<${links.unsubscribe}>`, ...(mailto ? [`<mailto:${mailto}?subject=${encodeURIComponent(`unsubscribe alert ${alertId}`)}>`] : [])];
  return { "List-Unsubscribe": targets.join(", "), "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** The alert emails' words in the alert's language (messages' "AlertMail"). */
type MailT = (key: string, values?: Record<string, string | number>) => string;

function footer(links: Links, why: string, t: MailT): { text: string[]; html: string } {
  return {
    text: ["", "--", why, t("manage", { url: links.manage }), t("unsubscribeAtOnce", { url: links.unsubscribe })],
    html: `<hr><p style="color:#57534e;font-size:13px">${escapeHtml(why)}<br><a href="${escapeHtml(links.manage)}">${escapeHtml(t("manageLink"))}</a> ${escapeHtml(t("manageAfter"))} · <a href="${escapeHtml(links.unsubscribe)}">${escapeHtml(t("unsubscribe"))}</a></p>`,
  };
}

function page(title: string, body: string, lang: Locale): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;color:#1c1917;max-width:600px;margin:0 auto;padding:16px">${body}</body></html>`;
}

/** "Female · Young · Medium", as the site's cards say it, in the alert's language. */
function profileLine(pet: Pet, locale: Locale): string {
  const words = translatorFor(locale, "Words");
  return [
    pet.sex === "unknown" ? undefined : words(`sex.${pet.sex}`),
    pet.ageGroup ? words(`age.${pet.ageGroup}`) : undefined,
    pet.size ? words(`size.${pet.size}`) : undefined,
    pet.breed ?? undefined,
  ]
    .filter(Boolean)
    .join(" · ");
}

interface AlertForMail {
  id: bigint;
  email: string;
  sealedToken: string;
  status: string;
  frequency: "hourly" | "daily";
  filters: AlertFilters;
  categoryId: bigint | null;
  /** The language of its emails (the page's it was made from). */
  locale: Locale;
}

async function loadAlert(id: bigint, client: Prisma.TransactionClient = db()): Promise<AlertForMail | null> {
  const row = await client.alert.findUnique({
    where: { id },
    select: { id: true, email: true, sealedToken: true, status: true, frequency: true, filters: true, categoryId: true, locale: true },
  });
  return row ? { ...row, filters: row.filters as AlertFilters, locale: mailLocale(row.locale) } : null;
}

/** The alert's filters in words; for an address not confirmed yet, without the text of a name search (the alert's page shows it). */
async function descriptionOf(alert: AlertForMail): Promise<string> {
  return describeFilters(alert.filters, alert.categoryId === null ? null : await queries.categoryName(alert.categoryId), {
    nameSearch: alert.status === "unconfirmed" ? "unnamed" : "shown",
    locale: alert.locale,
  });
}

/** The job 'alert-mail': the confirmation, or the renewal question; nothing when the alert is gone or has moved on. */
export async function sendAlertMail(job: AlertMailJob): Promise<void> {
  const base = mailLinkOrigin();
  const alert = await loadAlert(BigInt(job.alertId));
  if (!alert || !base) return;
  if (job.kind === "confirm" && alert.status !== "unconfirmed") return;
  const links = linksOf(base, alert.sealedToken, alert.filters, alert.locale);
  const description = await descriptionOf(alert);
  const t = translatorFor(alert.locale, "AlertMail");
  let mail: Mail;
  if (job.kind === "confirm") {
    const subject = t("confirmSubject", { description });
    const f = footer(links, t("confirmWhy"), t);
    const howOften = t("howOften", { frequency: alert.frequency });
    // The sentence with the description bold: split around a marker no description contains.
    const [before = "", after = ""] = t("confirmAsked", { description: "\u0000", howOften }).split("\u0000");
    mail = {
      kind: "alert_confirmation",
      to: alert.email,
      subject,
      text: [t("hello"), "", t("confirmAsked", { description, howOften }), "", t("confirmStart"), links.manage, "", t("confirmIgnore"), ...f.text].join("\n"),
      html: page(
        subject,
        `<p>${escapeHtml(t("hello"))}</p><p>${escapeHtml(before)}<strong>${escapeHtml(description)}</strong>${escapeHtml(after)}</p>` +
          `<p><a href="${escapeHtml(links.manage)}" style="display:inline-block;background:#1c1917;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(t("confirmButton"))}</a></p>` +
          `<p>${escapeHtml(t("confirmIgnore"))}</p>${f.html}`,
        alert.locale,
      ),
      headers: unsubscribeHeaders(links, alert.id),
    };
  } else {
    if (alert.status === "unconfirmed") return;
    const subject = t("renewalSubject", { description });
    const f = footer(links, t("renewalWhy"), t);
    const [before = "", after = ""] = t("renewalAsked", { description: "\u0000" }).split("\u0000");
    mail = {
      kind: "alert_renewal",
      to: alert.email,
      subject,
      text: [t("hello"), "", t("renewalAsked", { description }), "", t("renewalKeep"), links.manage, "", t("renewalOtherwise"), ...f.text].join("\n"),
      html: page(
        subject,
        `<p>${escapeHtml(t("hello"))}</p><p>${escapeHtml(before)}<strong>${escapeHtml(description)}</strong>${escapeHtml(after)}</p>` +
          `<p><a href="${escapeHtml(links.manage)}">${escapeHtml(t("renewalKeepLink"))}</a> ${escapeHtml(t("renewalKeepAfter"))}</p><p>${escapeHtml(t("renewalOtherwise"))}</p>${f.html}`,
        alert.locale,
      ),
      headers: unsubscribeHeaders(links, alert.id),
    };
  }
  await sendMail(mail);
}

/**
 * When the daily digest of alert `a` is due today: 08:00 of the current
 * day in its time zone, as a timestamptz.
 */
const digestAt = (now: Date) => Prisma.sql`((date_trunc('day', ${now}::timestamptz AT TIME ZONE a.time_zone) + interval '8 hours') AT TIME ZONE a.time_zone)`;

/** Alert `a` is due at `now`: something waits for it, and its schedule allows an email. */
function dueSql(now: Date): Prisma.Sql {
  const d8 = digestAt(now);
  return Prisma.sql`a.status = 'active' AND (
      (a.frequency = 'hourly' AND (a.last_sent_at IS NULL OR a.last_sent_at <= ${new Date(now.getTime() - HOUR_MS)}::timestamptz))
   OR (a.frequency = 'daily' AND ${now}::timestamptz >= ${d8} AND (a.last_sent_at IS NULL OR a.last_sent_at < ${d8})))
   AND EXISTS (SELECT 1 FROM alert_matches m WHERE m.alert_id = a.id AND m.sent_at IS NULL AND (a.frequency = 'hourly' OR m.queued_at < ${d8}))`;
}

/** The alerts with an email due after id `after`, from what waits (a partial index), not from every alert. */
async function dueAlertIds(now: Date, after: bigint, take: number): Promise<bigint[]> {
  const rows = await db().$queryRaw<{ id: bigint }[]>(Prisma.sql`
    SELECT a.id FROM (SELECT DISTINCT alert_id FROM alert_matches WHERE sent_at IS NULL AND alert_id > ${after}) w JOIN alerts a ON a.id = w.alert_id
     WHERE ${dueSql(now)} ORDER BY a.id LIMIT ${take}`);
  return rows.map((r) => r.id);
}

/**
 * One alert's email, if still due: the alert's row locked (SKIP LOCKED, so
 * two instances never both send it), what waits read, the email sent, the
 * matches and the alert marked, then commit. A failed send rolls it all
 * back (the next run tries again); a crash after the send but before the
 * commit may send it twice, never lose it. Animals no longer available are
 * dropped from the email; with none left, nothing is sent and the schedule
 * is unchanged.
 */
async function sendOne(id: bigint, now: Date, base: string): Promise<boolean> {
  return db().$transaction(
    async (tx) => {
      const [due] = await tx.$queryRaw<{ id: bigint; digest_at: Date }[]>(Prisma.sql`
        SELECT a.id, ${digestAt(now)} AS digest_at FROM alerts a WHERE a.id = ${id} AND ${dueSql(now)} FOR UPDATE OF a SKIP LOCKED`);
      if (!due) return false;
      const alert = (await loadAlert(id, tx))!;
      const waiting = await tx.$queryRaw<{ pet_id: bigint }[]>`
        SELECT pet_id FROM alert_matches WHERE alert_id = ${id} AND sent_at IS NULL
           AND (${alert.frequency} = 'hourly' OR queued_at < ${due.digest_at}) ORDER BY queued_at, pet_id`;
      const view = petView(now, base);
      const pets: Pet[] = [];
      for (const { pet_id } of waiting) {
        if (pets.length >= ANIMALS_PER_EMAIL) break;
        const row = await findPetById(Number(pet_id));
        // An alert is mail to the public: it shows what the public may see.
        if (row?.status === "available" && mayReadAnimal(THE_PUBLIC, row)) pets.push(toPet(row, view));
      }
      const more = waiting.length - pets.length - (await countUnavailable(waiting.map((w) => w.pet_id)));
      await tx.$executeRaw`UPDATE alert_matches SET sent_at = ${now} WHERE alert_id = ${id} AND pet_id = ANY(${waiting.map((w) => w.pet_id)}::bigint[])`;
      if (pets.length === 0) return false;
      const shelters = await shelterNames(pets.map((p) => p.organizationId));
      await sendMail(await matchMail(alert, pets, Math.max(0, more), shelters, base));
      await tx.$executeRaw`UPDATE alerts SET last_sent_at = ${now} WHERE id = ${id}`;
      return true;
    },
    { timeout: 60_000 },
  );
}

async function countUnavailable(ids: bigint[]): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pets WHERE id = ANY (${ids}::bigint[]) AND NOT (status = 'available' AND ${animalsCondition(THE_PUBLIC, "listed")})`;
  return row?.n ?? 0;
}

async function shelterNames(ids: number[]): Promise<Map<number, string>> {
  const rows = await db().organization.findMany({ where: { id: { in: [...new Set(ids)].map(BigInt) } }, select: { id: true, name: true } });
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

async function matchMail(alert: AlertForMail, pets: Pet[], more: number, shelters: Map<number, string>, base: string): Promise<Mail> {
  const links = linksOf(base, alert.sealedToken, alert.filters, alert.locale);
  const description = await descriptionOf(alert);
  const t = translatorFor(alert.locale, "AlertMail");
  const total = pets.length + more;
  const subject = t("matchSubject", { total, count: String(total), name: pets[0]!.name, description });
  const f = footer(links, t("matchWhy", { description }), t);
  const link = (p: Pet) => `${base}${localePath(alert.locale, `/pets/${p.id}`)}`;
  const shelter = (p: Pet) => t("atShelter", { shelter: shelters.get(p.organizationId) ?? t("theShelter") });
  const intro = t("matchIntro", { total, count: String(total) });
  const cover = (p: Pet) => {
    const urls = p.photos[0]?.urls ?? {};
    const width =
      Object.keys(urls)
        .map(Number)
        .sort((a, b) => a - b)
        .find((w) => w >= 320) ?? Object.keys(urls).map(Number).at(-1);
    return width === undefined ? null : urls[String(width)]!;
  };
  const text = [
    `${intro}:`,
    "",
    ...pets.flatMap((p) => [
      p.name,
      ...(profileLine(p, alert.locale) ? [profileLine(p, alert.locale)] : []),
      shelter(p),
      ...(cover(p) ? [t("photo", { url: cover(p)! })] : []),
      link(p),
      "",
    ]),
    ...(more > 0 ? [`${t("andMore", { count: String(more) })}: ${links.browse}`, ""] : []),
    t("yourAlert", { description }),
    ...f.text,
  ].join("\n");
  const cards = pets
    .map((p) => {
      const img = cover(p);
      return (
        `<tr><td style="padding:8px 12px 8px 0;vertical-align:top;width:120px">${img ? `<a href="${escapeHtml(link(p))}"><img src="${escapeHtml(img)}" alt="${escapeHtml(p.photos[0]?.alt ?? t("photoOf", { name: p.name }))}" width="120" style="border-radius:6px;display:block"></a>` : ""}</td>` +
        `<td style="padding:8px 0;vertical-align:top"><a href="${escapeHtml(link(p))}" style="font-size:18px;font-weight:bold;color:#1c1917">${escapeHtml(p.name)}</a>` +
        `${profileLine(p, alert.locale) ? `<br>${escapeHtml(profileLine(p, alert.locale))}` : ""}<br><span style="color:#57534e">${escapeHtml(shelter(p))}</span></td></tr>`
      );
    })
    .join("");
  const html = page(
    subject,
    `<p>${escapeHtml(intro)} (<strong>${escapeHtml(description)}</strong>):</p><table role="presentation">${cards}</table>` +
      `${more > 0 ? `<p><a href="${escapeHtml(links.browse)}">${escapeHtml(t("andMore", { count: String(more) }))}</a></p>` : ""}${f.html}`,
    alert.locale,
  );
  return { kind: "alert_matches", to: alert.email, subject, text, html, headers: unsubscribeHeaders(links, alert.id) };
}

/**
 * The job 'send-alerts' (every minute, and right after matches are found):
 * every due alert's email, each alert once per run (in id order). One
 * alert's failure does not hold the others back: it is logged (by id, never
 * the address) and retried at the next run; a refusal the mail server says
 * is permanent (5xx: no such mailbox) drops what waited instead, so a dead
 * address is not tried again every minute.
 */
export async function sendDueAlerts(now: Date): Promise<number> {
  const base = mailLinkOrigin();
  if (!env().SMTP_URL || !base) return 0;
  let sent = 0;
  let after = 0n;
  for (;;) {
    const ids = await dueAlertIds(now, after, 100);
    for (const id of ids) {
      try {
        if (await sendOne(id, now, base)) sent++;
      } catch (error) {
        const permanent = error instanceof MailError && (error.responseCode ?? 0) >= 500;
        logger().warn({ err: error, alertId: String(id), permanent }, "alert email not sent");
        if (permanent) await db().$executeRaw`UPDATE alert_matches SET sent_at = ${now} WHERE alert_id = ${id} AND sent_at IS NULL`;
      }
    }
    if (ids.length < 100) return sent;
    after = ids.at(-1)!;
  }
}

const DAY_MS = 86_400_000;
export const UNCONFIRMED_DAYS = 7;
export const RENEWAL_AFTER_DAYS = 365;
export const RENEWAL_GRACE_DAYS = 30;

/**
 * The job 'expire-alerts' (hourly): unconfirmed alerts older than 7 days
 * go; an alert untouched for 12 months is asked once whether it is still
 * wanted (the renewal email; opening any of its links answers yes) and goes
 * 30 days later if nobody answered; sent matches older than 30 days are forgotten.
 */
export async function expireAlerts(now: Date): Promise<{ unconfirmed: number; renewals: number; deleted: number }> {
  const unconfirmed = await queries.deleteUnconfirmedBefore(new Date(now.getTime() - UNCONFIRMED_DAYS * DAY_MS));
  const [row] = await db().$queryRaw<{ renewals: number }[]>`
    WITH asked AS (
      UPDATE alerts SET renewal_sent_at = ${now}
       WHERE status <> 'unconfirmed' AND renewal_sent_at IS NULL
         AND COALESCE(last_opened_at, confirmed_at) < ${new Date(now.getTime() - RENEWAL_AFTER_DAYS * DAY_MS)}
      RETURNING id
    )
    SELECT count(${Prisma.raw(QUEUE_SCHEMA)}.add_job('alert-mail', json_build_object('alertId', id::text, 'kind', 'renewal'),
             queue_name := 'alert-mail:' || id, max_attempts := 10))::int AS renewals FROM asked`;
  const deleted = await db().$executeRaw`DELETE FROM alerts WHERE renewal_sent_at < ${new Date(now.getTime() - RENEWAL_GRACE_DAYS * DAY_MS)}`;
  await queries.deleteSentMatchesBefore(new Date(now.getTime() - 30 * DAY_MS));
  return { unconfirmed, renewals: row?.renewals ?? 0, deleted };
}
