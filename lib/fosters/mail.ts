import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { localePath } from "@/lib/i18n/locales";
import { mailLinkOrigin } from "@/lib/mail/links";
import { sendMail } from "@/lib/mail/mailer";
import { openToken } from "@/lib/mail/sealed-token";
import { mailLocale, translatorFor } from "@/lib/i18n/translator";

// The fosters' emails, as the applicants' are (lib/applications/mail.ts):
// queued in the transaction of the change they report, sent by a job with
// retries. A link's token travels sealed; the payload holds ids and kinds
// only, never anything the person typed (graphile-worker logs a failed job's
// payload). Each email is in the person's language (the page they applied
// from), English when unknown.
//
// The note email goes to the organisation's own address and says only that
// a note was written about which animal, with the staff page's link: the
// note and the foster's name are personal data, read on the staff page
// through the policy (people:read), never relayed by mail.

export type FosterMailKind = "link" | "received" | "known" | "approved" | "declined" | "note";

export interface FosterMailJob {
  kind: FosterMailKind;
  personId: string;
  /** The private link's token, sealed (link, approved). */
  sealedToken?: string;
  /** The note written (note). */
  noteId?: string;
}

export async function queueFosterMail(tx: Prisma.TransactionClient, job: FosterMailJob): Promise<void> {
  await tx.$executeRaw`SELECT ${Prisma.raw(QUEUE_SCHEMA)}.add_job('foster-mail', ${JSON.stringify(job)}::json,
    queue_name := ${`foster-mail:${job.personId}`}, max_attempts := 10)`;
}

/** The job: the email the payload asks for, to the person's address as it is now (nothing once erased). */
export async function sendFosterMail(job: FosterMailJob): Promise<void> {
  const person = await db().person.findUnique({
    where: { id: BigInt(job.personId) },
    select: {
      email: true,
      locale: true,
      erasedAt: true,
      organization: { select: { name: true, email: true } },
      fosterApplications: { orderBy: { id: "desc" }, take: 1, select: { decisionMessage: true } },
    },
  });
  if (!person) return;
  const base = mailLinkOrigin();
  if (job.kind === "note") {
    const to = person.organization.email;
    if (!to || !job.noteId) return;
    const note = await db().fosterNote.findUnique({ where: { id: BigInt(job.noteId) }, select: { pet: { select: { id: true, name: true } } } });
    if (!note) return;
    // Staff pages are English.
    const page = base ? `${base}/staff/fosters/applications?person=${job.personId}` : "/staff/fosters/applications";
    await sendMail({
      kind: "foster_note",
      to,
      subject: `A foster wrote a note about ${note.pet.name}`,
      text: [
        `A foster wrote a note about ${note.pet.name} (animal #${note.pet.id}), person #${job.personId}.`,
        "",
        `Read it on the staff pages (sign in): ${page}`,
        "",
        "Petstore",
      ].join("\n"),
    });
    return;
  }
  if (!person.email || person.erasedAt) return;
  const locale = mailLocale(person.locale);
  const t = translatorFor(locale, "FosterMail");
  const shelter = person.organization.name;
  const link = base && job.sealedToken ? `${base}${localePath(locale, `/fosters/${openToken(job.sealedToken)}`)}` : null;
  const send = (kind: "foster_link" | "foster_application" | "foster_decision", subject: string, lines: string[]) =>
    sendMail({ kind, to: person.email!, subject, text: [t("greeting"), "", ...lines, "", t("signature")].join("\n") });

  if (job.kind === "link") {
    if (!link) return;
    await send("foster_link", t("linkSubject", { shelter }), [t("linkText", { shelter }), link, "", t("linkKeep")]);
  } else if (job.kind === "received") {
    await send("foster_application", t("receivedSubject", { shelter }), [t("receivedText", { shelter })]);
  } else if (job.kind === "known") {
    await send("foster_application", t("knownSubject", { shelter }), [t("knownText", { shelter })]);
  } else if (job.kind === "approved") {
    await send("foster_decision", t("approvedSubject", { shelter }), [
      t("approvedText", { shelter }),
      ...(link ? ["", t("linkText", { shelter }), link, "", t("linkKeep")] : []),
    ]);
  } else if (job.kind === "declined") {
    const message = person.fosterApplications[0]?.decisionMessage;
    await send("foster_decision", t("declinedSubject", { shelter }), [
      t("declinedText", { shelter }),
      ...(message ? ["", t("shelterMessage", { message })] : []),
    ]);
  }
}
