import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { APPLY_BUDGETS, applyKeyCounter } from "@/lib/applications/service";
import { addressRateKey } from "@/lib/core/client";
import { ApiError, notFound } from "@/lib/core/errors";
import { decodeCursor, invalidCursorFor, keysetPage, type PageLinks } from "@/lib/core/pagination";
import { DEFAULT_LOCALE } from "@/lib/i18n/locales";
import { emailCounterKey, spendBudgets } from "@/lib/rate-limit/budgets";
import type { Species } from "@/lib/reports/schemas";
import type { FosterApplicant, FosterDecline, ListFosterApplicantsQuery, NewFosterApplication } from "@/lib/fosters/applications-schemas";
import { issueFosterLink } from "@/lib/fosters/links";
import { queueFosterMail } from "@/lib/fosters/mail";
import { lockPersonByEmail, lockPersonOf } from "@/lib/people/queries";
import { assertMayReadPeople, placeHome, type Home } from "@/lib/people/service";
import type { Viewer } from "@/lib/visibility/policy";
import { sealToken } from "@/lib/mail/sealed-token";

// Applications to foster, from a shelter's page. An application makes the
// person a foster with the status `applicant` (a new person, or one of the
// organisation's people who had no foster role); staff approve (active, and
// a welcome email with the private link) or decline (inactive, an email
// with their message; what the applicant sent stays for staff only).
//
// Anyone can type any email address, so the answer is the same whatever the
// organisation already knew of it: a person already a foster (or already
// applying, or declined, or never to be placed with) is changed in nothing,
// and only the email to that address, which only its owner reads, says so
// kindly. The same budgets as adoption applications (per address, email and
// key, lib/applications/service.ts APPLY_BUDGETS) on counters of their own,
// the same honeypot and consent.

export interface FosterApplyContext {
  actor: { kind: "adopter" } | { kind: "api_key"; id: number };
  address: string;
  now: Date;
}

const RECEIVED = "Thank you: we have sent an email to that address saying what happens next.";

const OVER = { email: "this email address", address: "this network", key: "this API key" } as const;

export async function submitFosterApplication(
  organizationId: number,
  input: NewFosterApplication,
  context: FosterApplyContext,
): Promise<{ received: true; message: string }> {
  const org = await db().organization.findUnique({ where: { id: BigInt(organizationId) }, select: { id: true } });
  if (!org) throw notFound("organisation", organizationId);
  const home = await placeHome(input.address);
  const keyId = context.actor.kind === "api_key" ? context.actor.id : null;
  await spendBudgets(
    APPLY_BUDGETS,
    {
      address: keyId === null ? `foster-apply-address:${addressRateKey(context.address)}` : null,
      email: `foster-apply-email:${emailCounterKey(input.email)}`,
      key: keyId === null ? null : `foster-${applyKeyCounter(keyId)}`,
    },
    context.now,
    (over, wait) => `Too many applications from ${OVER[over]} for now. Please try again in ${wait}.`,
  );
  // Twice at most: two applications with one new email at once; the second finds the first's person.
  for (let attempt = 0; ; attempt++) {
    try {
      await db().$transaction((tx) => receive(tx, organizationId, input, home, context.now));
      return { received: true, message: RECEIVED };
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") || attempt > 0) throw error;
    }
  }
}

async function receive(tx: Prisma.TransactionClient, organizationId: number, input: NewFosterApplication, home: Home, now: Date): Promise<void> {
  const locale = input.locale ?? DEFAULT_LOCALE;
  const known = await lockPersonByEmail(tx, organizationId, input.email);
  if (known?.fosterStatus) {
    // Already a foster (or applying, or not to be placed with): nothing changes.
    await queueFosterMail(tx, { kind: "known", personId: String(known.id) });
    return;
  }
  const foster = { fosterStatus: "applicant" as const, fosterCapacity: input.capacity, fosterSpecies: input.species, locale, updatedAt: now };
  let personId: bigint;
  if (known) {
    // One of the organisation's people (an adopter, say) offers to foster: staff's record of them is kept, and completed.
    const row = await tx.person.findUniqueOrThrow({ where: { id: known.id }, select: { phone: true, city: true } });
    await tx.person.update({
      where: { id: known.id },
      data: { ...foster, ...(row.phone ? {} : { phone: input.phone }), ...(row.city ? {} : home), version: { increment: 1 } },
    });
    personId = known.id;
  } else {
    const row = await tx.person.create({
      data: { organizationId: BigInt(organizationId), name: input.name, email: input.email, phone: input.phone, ...home, ...foster, createdAt: now },
      select: { id: true },
    });
    personId = row.id;
  }
  await tx.fosterApplication.create({
    data: { organizationId: BigInt(organizationId), personId, message: input.message || null, consentAt: now, createdAt: now },
  });
  await queueFosterMail(tx, { kind: "received", personId: String(personId) });
}

const APPLICANT_SELECT = {
  id: true,
  message: true,
  createdAt: true,
  decision: true,
  decisionMessage: true,
  decidedAt: true,
  person: {
    select: {
      id: true,
      name: true,
      email: true,
      phone: true,
      street: true,
      city: true,
      region: true,
      postcode: true,
      country: true,
      fosterSpecies: true,
      fosterCapacity: true,
      fosterStatus: true,
      locale: true,
    },
  },
} as const satisfies Prisma.FosterApplicationSelect;

type ApplicantRow = Prisma.FosterApplicationGetPayload<{ select: typeof APPLICANT_SELECT }>;

function toApplicant(row: ApplicantRow): FosterApplicant {
  const p = row.person;
  return {
    id: Number(p.id),
    applicationId: Number(row.id),
    name: p.name,
    email: p.email,
    phone: p.phone,
    address: { street: p.street, city: p.city, region: p.region, postcode: p.postcode, country: p.country },
    species: p.fosterSpecies as Species[],
    capacity: p.fosterCapacity,
    message: row.message,
    locale: p.locale ?? DEFAULT_LOCALE,
    status: p.fosterStatus ?? "inactive",
    createdAt: row.createdAt.toISOString(),
    decision: row.decision === "approved" || row.decision === "declined" ? row.decision : null,
    decisionMessage: row.decisionMessage,
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/** Staff's inbox: the organisation's people who are foster applicants now, with what they sent, newest first. */
export async function listFosterApplicants(
  viewer: Viewer,
  organizationId: number,
  query: ListFosterApplicantsQuery,
): Promise<{ applicants: FosterApplicant[]; cursors: PageLinks }> {
  assertMayReadPeople(viewer, organizationId);
  // Newest first, keyset-paged as every list is: "after" walks to older applications, "before" back to newer.
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (cursor && (cursor.s !== undefined || cursor.k !== undefined)) throw invalidCursorFor("another list, not this inbox");
  const backwards = cursor?.d === "before";
  const rows = await db().fosterApplication.findMany({
    where: {
      organizationId: BigInt(organizationId),
      decision: null,
      person: { fosterStatus: "applicant", erasedAt: null },
      ...(cursor ? { id: backwards ? { gt: BigInt(cursor.id) } : { lt: BigInt(cursor.id) } } : {}),
    },
    orderBy: { id: backwards ? "asc" : "desc" },
    take: query.limit + 1,
    select: APPLICANT_SELECT,
  });
  const { page, cursors } = keysetPage(rows, query.limit, cursor, (row) => ({ id: Number(row.id) }));
  return { applicants: page.map(toApplicant), cursors };
}

/** Locks the applicant and their open application, or refuses: 404 (not the organisation's person), 409 (not an applicant now). */
async function lockApplicant(tx: Prisma.TransactionClient, organizationId: number, personId: number, step: string) {
  const person = await lockPersonOf(tx, organizationId, personId);
  if (!person) throw notFound("person", personId);
  const application = await tx.fosterApplication.findFirst({ where: { personId: person.id, decision: null }, orderBy: { id: "desc" }, select: { id: true } });
  if (person.fosterStatus !== "applicant" || !application) {
    throw new ApiError(
      409,
      "invalid_transition",
      `Person ${personId} is not a foster applicant now${person.fosterStatus ? ` (${person.fosterStatus})` : ""}, so cannot be ${step}.`,
    );
  }
  return { person, application };
}

async function applicantById(tx: Prisma.TransactionClient, applicationId: bigint): Promise<FosterApplicant> {
  return toApplicant(await tx.fosterApplication.findUniqueOrThrow({ where: { id: applicationId }, select: APPLICANT_SELECT }));
}

/** Approve: the person becomes an active foster, and is welcomed by email with their private link. */
export async function approveFosterApplicant(organizationId: number, personId: number, staff: string, now: Date): Promise<FosterApplicant> {
  return db().$transaction(async (tx) => {
    const { person, application } = await lockApplicant(tx, organizationId, personId, "approved");
    await tx.person.update({ where: { id: person.id }, data: { fosterStatus: "active", version: { increment: 1 }, updatedAt: now } });
    await tx.fosterApplication.update({ where: { id: application.id }, data: { decision: "approved", decidedAt: now, decidedBy: staff } });
    const link = person.email ? await issueFosterLink(tx, person.id, now) : null;
    await queueFosterMail(tx, { kind: "approved", personId: String(person.id), ...(link ? { sealedToken: sealToken(link.token) } : {}) });
    return applicantById(tx, application.id);
  });
}

/** Decline: the person becomes inactive; the message is emailed to them; what they sent stays for staff. */
export async function declineFosterApplicant(
  organizationId: number,
  personId: number,
  input: FosterDecline,
  staff: string,
  now: Date,
): Promise<FosterApplicant> {
  return db().$transaction(async (tx) => {
    const { person, application } = await lockApplicant(tx, organizationId, personId, "declined");
    await tx.person.update({ where: { id: person.id }, data: { fosterStatus: "inactive", version: { increment: 1 }, updatedAt: now } });
    await tx.fosterApplication.update({
      where: { id: application.id },
      data: { decision: "declined", decisionMessage: input.message, decidedAt: now, decidedBy: staff },
    });
    await queueFosterMail(tx, { kind: "declined", personId: String(person.id) });
    return applicantById(tx, application.id);
  });
}
