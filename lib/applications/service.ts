import { randomBytes } from "node:crypto";
import { DEFAULT_LOCALE } from "@/lib/i18n/locales";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Actor, WriteContext } from "@/lib/audit/schemas";
import { ApiError, notFound } from "@/lib/core/errors";
import { adoptionInProgress, changePet } from "@/lib/pets/service";
import { hashToken } from "@/lib/keys/tokens";
import type { PetStatus } from "@/lib/pets/schemas/fields";
import { addressRateKey } from "@/lib/core/client";
import { emailCounterKey, spendBudgets, type Budget } from "@/lib/rate-limit/budgets";
import type { Application, ApplicationListQuery, ApplicationState, ApplicationStatus, NewApplication, Transition } from "@/lib/applications/schemas";
import { APPLICATION_MOVES, CLOSED_WHEN_ANIMAL_LEAVES, OPEN_STATES } from "@/lib/applications/schemas";
import { queueApplicationMail } from "@/lib/applications/mail";
import { sealToken } from "@/lib/mail/sealed-token";
import { mailConfigured } from "@/lib/mail/mailer";
import { organizationScope, type Tenancy } from "@/lib/organizations/tenancy";
import { animalsCondition, mayReadAnimal, THE_PUBLIC } from "@/lib/visibility/policy";

// Adoption applications: an adopter applies for an available animal; staff
// review, approve (the animal becomes pending, in the same transaction),
// complete (sold) or cancel (available again); the applicant can withdraw
// while it is undecided. The applicant is reached only through a private
// link whose token is never stored (its hash is). Nothing of an applicant
// goes into the animal's events, webhooks or audit record: those carry the
// animal's change only.

/** Who acts on an application. */
export type ApplicationActor = { kind: "adopter" } | { kind: "api_key"; id: number } | { kind: "staff"; id: number; email: string } | { kind: "system" };

/** Application links are stored as base64url SHA-256 (the keys' and sessions' are hex). */
const hashLinkToken = (token: string) => hashToken(token, "base64url");

/**
 * How many applications one address, one email and one partner's key may
 * send, per hour and per day: a family applying for two or three animals
 * fits; a script does not. The email budgets bind everyone (counted as the
 * inbox sees the address: `+tags` and Gmail's dots are one inbox). The
 * address budgets bind browsers only, by network (an IPv6 /64 is one: a
 * subscriber holds a whole /64 and could rotate through it): a partner's
 * requests all come from its own servers' few addresses, on behalf of all
 * of its users, so an address budget would cap a whole listing site at a
 * handful of applications an hour. A partner's key has its own budget
 * instead, as it has for alerts: each application mails an address anyone
 * can type, and without it one leaked or careless key could mail thousands
 * of strangers a day, each address only a few times.
 */
export const APPLY_BUDGETS: Budget[] = [
  { who: "address", window: "hour", limit: 10 },
  { who: "address", window: "day", limit: 30 },
  { who: "email", window: "hour", limit: 5 },
  { who: "email", window: "day", limit: 10 },
  { who: "key", window: "hour", limit: 100 },
  { who: "key", window: "day", limit: 1_000 },
];

/** The counter a partner's key spends its application budget on. */
export const applyKeyCounter = (keyId: number | bigint) => `apply-key:${keyId}`;

const OVER: Record<Budget["who"], string> = { email: "this email address", address: "this network", key: "this API key" };

/** A browser's request spends the address budgets; a partner's key (actor api_key) its key's instead (see APPLY_BUDGETS). */
function spendApplyBudget(context: SubmitContext, email: string): Promise<void> {
  const keyId = context.actor.kind === "api_key" ? context.actor.id : null;
  return spendBudgets(
    APPLY_BUDGETS,
    {
      address: keyId === null ? `apply-address:${addressRateKey(context.address)}` : null,
      email: `apply-email:${emailCounterKey(email)}`,
      key: keyId === null ? null : applyKeyCounter(keyId),
    },
    context.now,
    (over, wait) => `Too many applications from ${OVER[over]} for now. Please try again in ${wait}.`,
  );
}

function notAvailable(name: string, status: PetStatus): ApiError {
  return new ApiError(
    409,
    "not_available",
    status === "sold"
      ? `${name} has already found a home, so no more applications are taken.`
      : `${name} is pending: an adoption is being arranged, so no more applications are taken for now.`,
  );
}

function actorColumns(actor: ApplicationActor): { kind: string; id: bigint | null; name: string | null } {
  if (actor.kind === "staff") return { kind: "staff", id: BigInt(actor.id), name: actor.email };
  if (actor.kind === "api_key") return { kind: "api_key", id: BigInt(actor.id), name: null };
  return { kind: actor.kind, id: null, name: null };
}

async function recordStep(
  tx: Prisma.TransactionClient,
  id: bigint,
  from: ApplicationState | null,
  to: ApplicationState,
  actor: ApplicationActor,
  requestId: string | null,
): Promise<void> {
  const a = actorColumns(actor);
  await tx.applicationStep.create({
    data: { applicationId: id, fromState: from, toState: to, actorKind: a.kind, actorId: a.id, actorName: a.name, requestId },
  });
}

export interface SubmitContext {
  actor: { kind: "adopter" } | { kind: "api_key"; id: number };
  /** The client's address, for the per-address budget (which binds adopters' browsers only, not partners' keys). */
  address: string;
  requestId: string;
  /**
   * Where the private page is for the answer's statusUrl: the origin the
   * client used (or the public one). Never used for the links in emails,
   * which come from configuration only (lib/mail/links.ts).
   */
  origin: string;
  now: Date;
}

/**
 * Receives an application: 201 with its private link, or why not. The
 * animal is checked before the applicant's budgets are spent: a request
 * naming a made-up, pending or sold animal costs nobody anything (else a
 * few of them naming a victim's email would lock the victim out for a day).
 * Applying again while an application for the animal is open counts, as it
 * emails the link again.
 */
export async function submitApplication(
  petId: number,
  input: NewApplication,
  context: SubmitContext,
): Promise<{ id: number; state: ApplicationState; statusUrl: string; token: string; petName: string }> {
  const pet = await db().pet.findUnique({ where: { id: BigInt(petId) }, select: { name: true, status: true, inCare: true, organizationId: true } });
  // An applicant is the public: an animal out of care is not there for them (lib/visibility).
  if (!pet || !mayReadAnimal(THE_PUBLIC, pet)) throw notFound("animal", petId);
  if (pet.status !== "available") throw notAvailable(pet.name, pet.status);
  await spendApplyBudget(context, input.email);
  // Twice at most: an open application found by the insert may be closed
  // (withdrawn) before it is looked up; then the insert is tried again.
  for (let attempt = 0; ; attempt++) {
    try {
      return await insertApplication(petId, input, context);
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
      const refusal = await alreadyApplied(petId, input.email);
      if (refusal || attempt > 0) throw refusal ?? alreadyAppliedError(pet.name, false);
    }
  }
}

async function insertApplication(petId: number, input: NewApplication, context: SubmitContext) {
  const token = randomBytes(32).toString("base64url");
  return db().$transaction(async (tx) => {
    // Shared lock: an approval (which locks the row for update) cannot
    // turn the animal pending between this check and the insert.
    const [pet] = await tx.$queryRaw<{ name: string; status: PetStatus; organization_id: bigint }[]>`
      SELECT name, status, organization_id FROM pets WHERE id = ${BigInt(petId)} AND ${animalsCondition(THE_PUBLIC, "listed")} FOR SHARE`;
    if (!pet) throw notFound("animal", petId);
    if (pet.status !== "available") throw notAvailable(pet.name, pet.status);
    const row = await tx.adoptionApplication.create({
      data: {
        petId: BigInt(petId),
        // The animal's shelter handles it: any key may forward for any shelter's animal.
        organizationId: pet.organization_id,
        tokenHash: hashLinkToken(token),
        name: input.name,
        email: input.email,
        phone: input.phone,
        home: input.home,
        otherAnimals: input.otherAnimals || null,
        message: input.message,
        consentAt: context.now,
        locale: input.locale ?? DEFAULT_LOCALE,
        sourceKeyId: context.actor.kind === "api_key" ? BigInt(context.actor.id) : null,
      },
      select: { id: true },
    });
    await recordStep(tx, row.id, null, "received", context.actor, context.requestId);
    await queueApplicationMail(tx, { applicationId: String(row.id), kind: "received", sealedToken: sealToken(token) });
    return { id: Number(row.id), state: "received" as const, statusUrl: `${context.origin}/applications/${token}`, token, petName: pet.name };
  });
}

/**
 * The answer to applying again while an application for the animal is open
 * (one per email and animal). Anyone can send any email address, so it
 * tells nothing of that application (no id, no date): the link to it goes
 * to that address instead, where only its owner reads it. The token is
 * stored nowhere, so that is a new link to the same application; the first
 * keeps working. Null when no open application is found after all (it was
 * closed meanwhile: the caller may insert again).
 */
async function alreadyApplied(petId: number, email: string): Promise<ApiError | null> {
  return db().$transaction(async (tx) => {
    const [open] = await tx.$queryRaw<{ id: bigint; pet_name: string }[]>`
      SELECT a.id, p.name AS pet_name FROM adoption_applications a JOIN pets p ON p.id = a.pet_id
       WHERE a.pet_id = ${BigInt(petId)} AND lower(a.email) = ${email} AND a.state = ANY(${[...OPEN_STATES]}::"ApplicationState"[])
       FOR UPDATE OF a`;
    if (!open) return null;
    const sent = mailConfigured();
    if (sent) {
      const token = randomBytes(32).toString("base64url");
      await tx.applicationLink.create({ data: { tokenHash: hashLinkToken(token), applicationId: open.id } });
      await queueApplicationMail(tx, { applicationId: String(open.id), kind: "link", sealedToken: sealToken(token) });
    }
    return alreadyAppliedError(open.pet_name, sent);
  });
}

function alreadyAppliedError(petName: string, sent: boolean): ApiError {
  return new ApiError(
    409,
    "already_applied",
    `An application for ${petName} from this email address is still open, so there is no need to apply again. ` +
      (sent
        ? "To follow it, or withdraw it, use its private link: we have sent the link to that address again."
        : "To follow it, or withdraw it, use the private link you were given when you applied."),
  );
}

const STATUS_SELECT = {
  id: true,
  state: true,
  petId: true,
  name: true,
  decisionMessage: true,
  createdAt: true,
  updatedAt: true,
  pet: { select: { name: true } },
} as const;

type StatusRow = Prisma.AdoptionApplicationGetPayload<{ select: typeof STATUS_SELECT }>;

function toStatus(row: StatusRow): ApplicationStatus {
  return {
    id: Number(row.id),
    state: row.state,
    petId: Number(row.petId),
    petName: row.pet.name,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    name: row.name,
    decisionMessage: row.decisionMessage,
  };
}

const NO_SUCH_LINK = "There is no application at this link. Check that the whole link was copied.";

/** The application a private link opens: its first link (the row's own hash), or one sent again since (application_links). */
const byToken = (token: string): Prisma.AdoptionApplicationWhereInput => {
  const tokenHash = hashLinkToken(token);
  return { OR: [{ tokenHash }, { links: { some: { tokenHash } } }] };
};

/** The applicant's own view, by the private link's token. */
export async function applicationByToken(token: string): Promise<ApplicationStatus> {
  const row = await db().adoptionApplication.findFirst({ where: byToken(token), select: STATUS_SELECT });
  if (!row) throw notFound(NO_SUCH_LINK);
  return toStatus(row);
}

const invalidTransition = (from: ApplicationState, to: string) =>
  new ApiError(409, "invalid_transition", `This application is ${from.replace("_", " ")}, so it cannot be ${to.replace("_", " ")} now.`);

/** The applicant withdraws (only while undecided: once approved, the shelter is arranging it with them). */
export async function withdrawByToken(token: string, requestId: string): Promise<ApplicationStatus> {
  return db().$transaction(async (tx) => {
    const tokenHash = hashLinkToken(token);
    const [row] = await tx.$queryRaw<{ id: bigint; state: ApplicationState }[]>`
      SELECT id, state FROM adoption_applications
       WHERE token_hash = ${tokenHash} OR id = (SELECT application_id FROM application_links WHERE token_hash = ${tokenHash})
       FOR UPDATE`;
    if (!row) throw notFound(NO_SUCH_LINK);
    if (!APPLICATION_MOVES[row.state].includes("withdrawn")) {
      throw row.state === "approved"
        ? new ApiError(
            409,
            "invalid_transition",
            "This application has been approved: the shelter is arranging the adoption with you. To withdraw now, tell the shelter.",
          )
        : invalidTransition(row.state, "withdrawn");
    }
    await tx.adoptionApplication.update({ where: { id: row.id }, data: { state: "withdrawn", updatedAt: new Date() } });
    await recordStep(tx, row.id, row.state, "withdrawn", { kind: "adopter" }, requestId);
    return toStatus(await tx.adoptionApplication.findUniqueOrThrow({ where: { id: row.id }, select: STATUS_SELECT }));
  });
}

const FULL_SELECT = {
  ...STATUS_SELECT,
  pet: { select: { name: true, status: true, version: true } },
  email: true,
  phone: true,
  home: true,
  otherAnimals: true,
  message: true,
  sourceKeyId: true,
  anonymisedAt: true,
  steps: { orderBy: { id: "asc" }, select: { fromState: true, toState: true, at: true, actorKind: true, actorId: true, actorName: true } },
} as const satisfies Prisma.AdoptionApplicationSelect;

type FullRow = Prisma.AdoptionApplicationGetPayload<{ select: typeof FULL_SELECT }>;

function describeStepActor(step: FullRow["steps"][number]): string {
  if (step.actorKind === "staff") return `staff ${step.actorName ?? `#${step.actorId}`}`;
  if (step.actorKind === "api_key") return `API key #${step.actorId}`;
  if (step.actorKind === "adopter") return "the applicant";
  return "the system";
}

function toApplication(row: FullRow): Application {
  return {
    ...toStatus(row),
    petStatus: row.pet.status,
    petVersion: row.pet.version,
    email: row.email,
    phone: row.phone,
    home: row.home,
    otherAnimals: row.otherAnimals,
    message: row.message,
    source: row.sourceKeyId === null ? "site" : "partner",
    anonymised: row.anonymisedAt !== null,
    steps: row.steps.map((s) => ({ from: s.fromState, to: s.toState, at: s.at.toISOString(), actor: describeStepActor(s) })),
  };
}

/** Staff's inbox: newest first, by state and animal, paged by id; one organisation's (or, for a platform admin, every one's). */
export async function listApplications(
  query: ApplicationListQuery,
  organizationId: number | undefined,
): Promise<{ applications: Application[]; next: number | null }> {
  const rows = await db().adoptionApplication.findMany({
    where: {
      ...(organizationId !== undefined ? { organizationId: BigInt(organizationId) } : {}),
      ...(query.state ? { state: query.state } : {}),
      ...(query.petId ? { petId: BigInt(query.petId) } : {}),
      ...(query.before ? { id: { lt: BigInt(query.before) } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit + 1,
    select: FULL_SELECT,
  });
  const more = rows.length > query.limit;
  const page = rows.slice(0, query.limit).map(toApplication);
  return { applications: page, next: more ? page.at(-1)!.id : null };
}

/** One application, if it is `organizationId`'s (undefined: anyone's, for a platform admin). */
export async function getApplication(id: number, organizationId: number | undefined): Promise<Application> {
  const row = await db().adoptionApplication.findFirst({
    where: { id: BigInt(id), ...(organizationId !== undefined ? { organizationId: BigInt(organizationId) } : {}) },
    select: FULL_SELECT,
  });
  if (!row) throw notFound("application", id);
  return toApplication(row);
}

/**
 * The animal left the shelter other than by adoption (an outcome recorded,
 * or a correction that makes one its latest stay): none of its open or
 * approved applications can be completed now, so each is cancelled
 * (CLOSED_WHEN_ANIMAL_LEAVES) and its applicant told, in their language, that
 * the animal is no longer available (from a job, as every applicant's email).
 * lib/pets/stays.ts runs this in the outcome's transaction, under the
 * animal's lock: the pets lie below the applications, so their routes hand
 * it in. Says whether the approved application, whose adoption held the
 * animal's status, was among them.
 */
export async function closeApplicationsOfAnimalLeavingCare(
  tx: Prisma.TransactionClient,
  petId: number,
  context: WriteContext,
): Promise<{ approvedCancelled: boolean }> {
  const closed = await tx.$queryRaw<{ id: bigint; state: ApplicationState }[]>`
    UPDATE adoption_applications AS a SET state = 'cancelled', updated_at = now()
      FROM (SELECT id, state FROM adoption_applications WHERE pet_id = ${BigInt(petId)}
             AND state::text IN (${Prisma.join([...CLOSED_WHEN_ANIMAL_LEAVES])}) ORDER BY id FOR UPDATE) AS before
     WHERE a.id = before.id RETURNING a.id, before.state`;
  const actor: ApplicationActor =
    context.actor.kind === "staff" ? { kind: "staff", id: context.actor.id, email: context.actor.email } : { kind: "api_key", id: context.actor.id };
  for (const application of closed) {
    await recordStep(tx, application.id, application.state, "cancelled", actor, context.requestId);
    await queueApplicationMail(tx, { applicationId: String(application.id), kind: "unavailable" });
  }
  return { approvedCancelled: closed.some((a) => a.state === "approved") };
}

/** What the animal becomes when an application takes this step. */
const PET_STATUS_AFTER: Partial<Record<Transition["to"], PetStatus>> = { approved: "pending", completed: "sold", cancelled: "available" };

export interface TransitionContext {
  staff: { id: number; email: string };
  /** Whose applications the staff member may decide: named in the statements that lock the application and its animal. */
  tenancy: Tenancy;
  requestId: string;
  /** If-Match: the animal's versions the step may apply to (undefined: no condition), as for PATCH /v1/pets/{id}. */
  expectedVersions?: number[];
}

/** The animal's versions acceptable to both conditions a client may send: If-Match, and the older `petVersion` field. */
function acceptedVersions(ifMatch: number[] | undefined, petVersion: number | undefined): number[] | undefined {
  if (petVersion === undefined) return ifMatch;
  return ifMatch === undefined ? [petVersion] : ifMatch.filter((v) => v === petVersion);
}

/** A write broke the one-approved-application-per-animal index (an approval that raced past the check, or data from before it). */
function isOneApprovedViolation(error: unknown): boolean {
  return (
    error instanceof Prisma.PrismaClientKnownRequestError &&
    error.code === "P2002" &&
    JSON.stringify(error.meta ?? {}).includes("adoption_applications_one_approved")
  );
}

/**
 * A staff step. Approve, complete and cancel change the animal too, through
 * changePet: one transaction with the animal's row locked, If-Match (the
 * animal's ETag staff saw, or the older `petVersion` field) honoured, its
 * audit record and pet.updated event. Steps that leave the animal alone
 * (review, decline) ignore If-Match: an edit of the animal's name is no
 * reason to refuse them. Two approvals for one animal at once: the second
 * waits for the first's lock, then finds the animal pending and changes
 * nothing (409). An approval while another application is approved (the
 * animal set back to available by hand before that was refused, say) is a
 * 409 too, never the unique index's error.
 */
export async function transitionApplication(id: number, step: Transition, context: TransitionContext): Promise<Application> {
  const actor: Actor = { kind: "staff", id: context.staff.id, email: context.staff.email };
  const organizationId = organizationScope(context.tenancy);
  const org = organizationId === undefined ? null : BigInt(organizationId);
  const ofOrganization = Prisma.sql`(${org}::bigint IS NULL OR organization_id = ${org}::bigint)`;
  const [found] = await db().$queryRaw<{ pet_id: bigint }[]>`SELECT pet_id FROM adoption_applications WHERE id = ${BigInt(id)} AND ${ofOrganization}`;
  if (!found) throw notFound("application", id);
  const petStatus = PET_STATUS_AFTER[step.to];

  // The application's own state decides first: a step its state does not
  // allow is invalid_transition whatever the animal's state.
  // The organisation is checked in the statement that locks the row, so the check and the step are one.
  const lockState = async (tx: Prisma.TransactionClient): Promise<ApplicationState> => {
    const [row] = await tx.$queryRaw<
      { state: ApplicationState }[]
    >`SELECT state FROM adoption_applications WHERE id = ${BigInt(id)} AND ${ofOrganization} FOR UPDATE`;
    if (!row) throw notFound("application", id);
    const from = row.state;
    if (!APPLICATION_MOVES[from].includes(step.to)) throw invalidTransition(from, step.to);
    return from;
  };

  const move = async (tx: Prisma.TransactionClient, from: ApplicationState): Promise<void> => {
    await tx.adoptionApplication.update({
      where: { id: BigInt(id) },
      data: { state: step.to, updatedAt: new Date(), ...(step.to === "declined" ? { decisionMessage: step.message } : {}) },
    });
    await recordStep(tx, BigInt(id), from, step.to, { kind: "staff", ...context.staff }, context.requestId);
    await queueApplicationMail(tx, { applicationId: String(id), kind: "decision", state: step.to });
    if (step.to === "completed" && step.declineOthers) {
      const others = await tx.$queryRaw<{ id: bigint; state: ApplicationState }[]>`
        UPDATE adoption_applications AS a SET state = 'declined', decision_message = ${step.message}, updated_at = now()
        FROM (SELECT id, state FROM adoption_applications WHERE pet_id = ${found.pet_id} AND id <> ${BigInt(id)}
              AND state IN ('received', 'in_review') FOR UPDATE) AS before
        WHERE a.id = before.id RETURNING a.id, before.state`;
      for (const other of others) {
        await recordStep(tx, other.id, other.state, "declined", { kind: "staff", ...context.staff }, context.requestId);
        await queueApplicationMail(tx, { applicationId: String(other.id), kind: "decision", state: "declined" });
      }
    }
  };

  if (!petStatus) {
    await db().$transaction(async (tx) => move(tx, await lockState(tx)));
  } else {
    const expectedVersions = acceptedVersions(context.expectedVersions, step.petVersion);
    try {
      await changePet(Number(found.pet_id), { actor, requestId: context.requestId, expectedVersions, tenancy: context.tenancy }, async (tx, was) => {
        const from = await lockState(tx);
        if (step.to === "approved") {
          if (was.status !== "available") throw notAvailable(was.name, was.status);
          // Under the animal's lock, which every approval takes first: no other can slip in after this.
          const [approved] = await tx.$queryRaw<{ id: bigint }[]>`
            SELECT id FROM adoption_applications WHERE pet_id = ${found.pet_id} AND state = 'approved' AND id <> ${BigInt(id)} LIMIT 1`;
          if (approved) throw adoptionInProgress(was.name, approved.id, "approve");
        }
        await move(tx, from);
        return was.status === petStatus ? null : { before: { status: was.status }, columns: { status: petStatus } };
      });
    } catch (error) {
      if (!isOneApprovedViolation(error)) throw error;
      const pet = await db().pet.findUnique({ where: { id: found.pet_id }, select: { name: true } });
      throw adoptionInProgress(pet?.name ?? "this animal", null, "approve");
    }
  }
  return getApplication(id, organizationId);
}
