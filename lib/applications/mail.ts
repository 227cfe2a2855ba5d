import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { mailLinkOrigin } from "@/lib/mail/links";
import { sendMail } from "@/lib/mail/mailer";
import { openToken } from "@/lib/mail/sealed-token";
import type { ApplicationState } from "@/lib/applications/schemas";

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

// Sealing lives in lib/mail/sealed-token.ts (alerts seal theirs the same way); re-exported for existing callers.
export { openToken, sealToken } from "@/lib/mail/sealed-token";

export type MailKind = "received" | "decision" | "link";

export interface MailJob {
  applicationId: string;
  /** What the email is about: the application received, a decision on it, or its private link again (the applicant applied again). */
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

const DECISIONS: Partial<Record<ApplicationState, (pet: string) => { subject: string; text: string }>> = {
  in_review: (pet) => ({ subject: `Your application for ${pet} is being reviewed`, text: `The shelter is now looking at your application to adopt ${pet}. They may contact you with questions.` }),
  approved: (pet) => ({ subject: `Good news: your application for ${pet} was approved`, text: `The shelter approved your application to adopt ${pet}, and will contact you to arrange the adoption.` }),
  declined: (pet) => ({ subject: `Your application for ${pet}`, text: `The shelter could not accept your application to adopt ${pet}.` }),
  completed: (pet) => ({ subject: `Welcome home, ${pet}`, text: `The adoption of ${pet} is complete. Thank you for giving an animal a home!` }),
  cancelled: (pet) => ({ subject: `Your adoption of ${pet} was cancelled`, text: `The adoption of ${pet} was cancelled. The shelter will have told you why; you are welcome to apply again.` }),
};

/**
 * The job: the email the payload asks for, to the applicant's address as it
 * is now (nothing once it is anonymised or erased).
 */
export async function sendApplicationMail(job: MailJob): Promise<void> {
  const row = await db().adoptionApplication.findUnique({
    where: { id: BigInt(job.applicationId) },
    select: { id: true, email: true, name: true, state: true, decisionMessage: true, pet: { select: { name: true } } },
  });
  if (!row?.email) return;
  const greeting = `Hello ${row.name ?? ""},`.replace(" ,", ",");
  const base = mailLinkOrigin();
  const link = base && job.sealedToken ? `${base}/applications/${openToken(job.sealedToken)}` : null;
  if (job.kind === "link") {
    if (!link) return;
    await sendMail({
      kind: "application_link",
      to: row.email,
      subject: `The link to your application for ${row.pet.name}`,
      text: [
        greeting,
        "",
        `Someone, probably you, applied again to adopt ${row.pet.name} with this email address, while your application for ${row.pet.name} is still open. There is no need to apply again: follow your application, or withdraw it, on its private page:`,
        link,
        "",
        "The link we sent you before still works too. Keep them to yourself: anyone who has one can see your application. If you did not apply again, you can ignore this email.",
        "",
        "Petstore",
      ].join("\n"),
    });
    return;
  }
  if (job.kind === "received") {
    await sendMail({
      kind: "application_received",
      to: row.email,
      subject: `We received your application for ${row.pet.name}`,
      text: [
        greeting,
        "",
        `Thank you for applying to adopt ${row.pet.name} (application #${row.id}). The shelter will look at it and get in touch.`,
        "",
        ...(link ? ["Follow your application, or withdraw it, on its private page:", link, "", "Keep this link to yourself: anyone who has it can see your application."] : []),
        "",
        "Petstore",
      ].join("\n"),
    });
    return;
  }
  const state = job.state ?? row.state;
  const decision = DECISIONS[state]?.(row.pet.name);
  if (!decision) return;
  // Only a decline carries a message (and, being final, keeps it).
  const message = state === "declined" ? row.decisionMessage : null;
  await sendMail({
    kind: "application_decision",
    to: row.email,
    subject: decision.subject,
    text: [greeting, "", decision.text, ...(message ? ["", `Message from the shelter: ${message}`] : []), "", `Application #${row.id}. The link in our first email shows where it stands.`, "", "Petstore"].join("\n"),
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
    const lines = theirs.map((a) => `- #${a.id} for ${a.pet.name} (animal #${a.pet.id}), received ${a.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC`);
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
