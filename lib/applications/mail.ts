import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { mailLinkOrigin } from "@/lib/mail/links";
import { sendMail } from "@/lib/mail/mailer";
import { openToken } from "@/lib/mail/sealed-token";
import type { ApplicationState } from "@/lib/applications/schemas";
import { mailLocale, translatorFor } from "@/lib/i18n/translator";

// The applicant's emails: the confirmation with the private link, and each
// decision. Queued as a graphile-worker job in the same transaction as the
// change (so a rolled-back change sends nothing, and a committed one is sent
// even if this process dies), sent by the job with retries, never inside the
// request. Without SMTP_URL the job finds nothing to do.
//
// The confirmation needs the link's token, which is stored nowhere (only its
// hash). It travels in the job's payload sealed (AES-256-GCM, keyed from
// SESSION_SECRET, or a local setup's own random secret: lib/app-secret.ts;
// never from an empty one), so the jobs table never holds a usable link.
//
// A decision's email says the decision that queued it, carried in the
// payload: by the time the job runs (or is retried hours later) the
// application may have moved on (approved, then completed a minute later),
// and reading its state then would send the later news twice and the
// earlier never. The payload holds states and ids only, nothing of the
// applicant: graphile-worker logs a failed job's payload.

export type MailKind = "received" | "decision" | "link" | "unavailable";

export interface MailJob {
  applicationId: string;
  /**
   * What the email is about: the application received, a decision on it, its
   * private link again (the applicant applied again), or the application
   * closed because the animal left the shelter (issue 48).
   */
  kind: MailKind;
  /** The private link's token, sealed (confirmations and links again). */
  sealedToken?: string;
  /**
   * The origin the request used, carried by jobs queued before issue 28:
   * ignored, as links in emails come from configuration only (lib/mail/links.ts).
   */
  origin?: string;
  /**
   * The state the decision moved the application to (decisions only). Jobs
   * queued before it was carried lack it; those say the state as it is now.
   */
  state?: ApplicationState;
}

/**
 * Queues an email to the applicant, as part of the caller's transaction. One
 * application's emails share a queue, so they are sent one at a time in the
 * order of its steps (the approval before the completion), unless a send
 * fails and its retry comes after a later one.
 */
export async function queueApplicationMail(tx: Prisma.TransactionClient, job: MailJob): Promise<void> {
  await tx.$executeRaw`SELECT ${Prisma.raw(QUEUE_SCHEMA)}.add_job('application-mail', ${JSON.stringify(job)}::json,
    queue_name := ${`application-mail:${job.applicationId}`}, max_attempts := 10)`;
}

/** The states whose news the applicant is told (messages' Mail.decisionSubject and decisionText). */
const DECISIONS: ReadonlySet<ApplicationState> = new Set(["in_review", "approved", "declined", "completed", "cancelled"]);

/**
 * The job: the email the payload asks for, to the applicant's address as it
 * is now (nothing once it is anonymised or erased).
 */
export async function sendApplicationMail(job: MailJob): Promise<void> {
  const row = await db().adoptionApplication.findUnique({
    where: { id: BigInt(job.applicationId) },
    select: { id: true, email: true, state: true, decisionMessage: true, locale: true, pet: { select: { name: true } } },
  });
  if (!row?.email) return;
  // In the language of the page the application was made from.
  const t = translatorFor(mailLocale(row.locale), "Mail");
  // Nothing the applicant typed goes into these emails, not even the name
  // to greet: whoever applies types the address too, and nobody has
  // confirmed it (the private link is also in the answer to the request),
  // so a greeting relayed 100 characters of anyone's text to anyone's inbox
  // from the service's own domain. Alert emails stopped relaying a name
  // search to unconfirmed addresses for the same reason. What the mails say
  // comes from the shelter (the animal's name, a decline's message) or from us.
  const greeting = t("greeting");
  const pet = row.pet.name;
  const base = mailLinkOrigin();
  const link = base && job.sealedToken ? `${base}/applications/${openToken(job.sealedToken)}` : null;
  if (job.kind === "link") {
    if (!link) return;
    await sendMail({
      kind: "application_link",
      to: row.email,
      subject: t("linkSubject", { pet }),
      text: [greeting, "", t("linkText", { pet }), link, "", t("linkAfter"), "", t("signature")].join("\n"),
    });
    return;
  }
  if (job.kind === "received") {
    await sendMail({
      kind: "application_received",
      to: row.email,
      subject: t("receivedSubject", { pet }),
      text: [
        greeting,
        "",
        t("receivedText", { pet, id: String(row.id) }),
        "",
        ...(link ? [t("receivedFollow"), link, "", t("receivedKeep")] : []),
        "",
        t("signature"),
      ].join("\n"),
    });
    return;
  }
  if (job.kind === "unavailable") {
    // Not why it left (a transfer, a death): that is the shelter's record, not the applicant's news.
    await sendMail({
      kind: "application_decision",
      to: row.email,
      subject: t("unavailableSubject", { pet }),
      text: [greeting, "", t("unavailableText", { pet }), "", t("decisionFooter", { id: String(row.id) }), "", t("signature")].join("\n"),
    });
    return;
  }
  const state = job.state ?? row.state;
  if (!DECISIONS.has(state)) return;
  const decision = { subject: t("decisionSubject", { state, pet }), text: t("decisionText", { state, pet }) };
  // Only a decline carries a message (and, being final, keeps it).
  const message = state === "declined" ? row.decisionMessage : null;
  await sendMail({
    kind: "application_decision",
    to: row.email,
    subject: decision.subject,
    text: [
      greeting,
      "",
      decision.text,
      ...(message ? ["", t("shelterMessage", { message })] : []),
      "",
      t("decisionFooter", { id: String(row.id) }),
      "",
      t("signature"),
    ].join("\n"),
  });
}

/**
 * The daily digest for staff who opted in: the applications received in the
 * 24 hours before `now`, by animal, each staff member their own
 * organisation's (a platform admin every one's). Nothing is sent to someone
 * whose organisation had none. Returns how many staff were written to.
 */
export async function sendApplicationDigest(now: Date): Promise<number> {
  const since = new Date(now.getTime() - 86_400_000);
  const fresh = await db().adoptionApplication.findMany({
    where: { createdAt: { gte: since, lt: now } },
    orderBy: { id: "asc" },
    select: { id: true, createdAt: true, organizationId: true, pet: { select: { id: true, name: true } } },
  });
  if (fresh.length === 0) return 0;
  const staff = await db().staffUser.findMany({ where: { applicationDigest: true }, select: { email: true, organizationId: true, platformAdmin: true } });
  const base = mailLinkOrigin();
  let written = 0;
  for (const member of staff) {
    const theirs = fresh.filter((a) => member.platformAdmin || a.organizationId === member.organizationId);
    if (theirs.length === 0) continue;
    const lines = theirs.map(
      (a) => `- #${a.id} for ${a.pet.name} (animal #${a.pet.id}), received ${a.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
    );
    const text = [
      `${theirs.length} new adoption application${theirs.length === 1 ? "" : "s"} in the last 24 hours:`,
      "",
      ...lines,
      "",
      base ? `The inbox: ${base}/staff/applications` : "They are in the staff inbox, /staff/applications.",
      "",
      "You get this because you opted in (npm run cli -- staff digest --email <you> --off to stop).",
    ].join("\n");
    await sendMail({ kind: "staff_digest", to: member.email, subject: `${theirs.length} new adoption application${theirs.length === 1 ? "" : "s"}`, text });
    written++;
  }
  return written;
}
