import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError, notFound } from "@/lib/core/errors";
import { hashToken } from "@/lib/keys/tokens";
import { mailConfigured } from "@/lib/mail/mailer";
import { sealToken } from "@/lib/mail/sealed-token";
import { petView, photoUrl } from "@/lib/pets/present";
import type { Species } from "@/lib/reports/schemas";
import { queueFosterMail } from "@/lib/fosters/mail";
import { assertMayReadPeople } from "@/lib/people/service";
import type { Blackout } from "@/lib/people/schemas";
import type { Viewer } from "@/lib/visibility/policy";
import { lockPersonOf } from "@/lib/people/queries";
import {
  FOSTER_LINK_DAYS,
  type FosterPage,
  type FosterPreferencesPatch,
  type FosterView,
  type FosterNote,
  type NewFosterNote,
} from "@/lib/fosters/links-schemas";

// The foster's private link and page. Staff send a link; only its SHA-256 is
// stored (foster_links, one row per person), so sending again replaces the
// row and the link sent before stops working at once. A link works for
// FOSTER_LINK_DAYS days, and only while its person is an active or paused
// foster: a foster set inactive (or never to be placed with) loses the page
// with the status. The page shows the foster their own animals (their open
// placements) and nothing of anyone else's; what they change or say there is
// theirs alone (capacity, species, blackout days, notes, "ready for another").

const hashLinkToken = (token: string) => hashToken(token, "base64url");
const DAY_MS = 86_400_000;
/** The statuses whose fosters have a page. */
const WITH_A_PAGE = new Set(["active", "paused"]);

const NO_SUCH_LINK = "There is no foster page at this link. Check that the whole link was copied from the email.";

/**
 * A new link for the person, replacing any earlier one, inside the caller's
 * transaction; the token is returned once, to be sealed into the email job.
 */
export async function issueFosterLink(tx: Prisma.TransactionClient, personId: bigint, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + FOSTER_LINK_DAYS * DAY_MS);
  const tokenHash = hashLinkToken(token);
  await tx.fosterLink.upsert({
    where: { personId },
    create: { personId, tokenHash, expiresAt, createdAt: now },
    update: { tokenHash, expiresAt, createdAt: now },
  });
  return { token, expiresAt };
}

/** Staff send the foster their page's link (POST …/people/{personId}/link). */
export async function sendFosterLink(organizationId: number, personId: number, now: Date): Promise<{ sent: boolean; expiresAt: string }> {
  return db().$transaction(async (tx) => {
    const person = await lockPersonOf(tx, organizationId, personId);
    if (!person) throw notFound("person", personId);
    if (!person.fosterStatus || !WITH_A_PAGE.has(person.fosterStatus)) {
      throw new ApiError(
        409,
        "not_a_foster",
        `Person ${personId} is not an active or paused foster${person.fosterStatus ? ` (${person.fosterStatus})` : ""}: only they have a foster page.`,
      );
    }
    if (!person.email) throw new ApiError(409, "not_a_foster", `Person ${personId} has no email address to send the link to.`);
    const { token, expiresAt } = await issueFosterLink(tx, person.id, now);
    const sent = mailConfigured();
    await queueFosterMail(tx, { kind: "link", personId: String(person.id), sealedToken: sealToken(token) });
    return { sent, expiresAt: expiresAt.toISOString() };
  });
}

interface Opened {
  personId: bigint;
  organizationId: bigint;
  expiresAt: Date;
}

/** The person a token opens, or 404 (no such link) / 410 (expired, or no longer a foster). With `tx`, the person's row is locked. */
async function openLink(token: string, now: Date, tx?: Prisma.TransactionClient): Promise<Opened> {
  const client = tx ?? db();
  const [row] = await client.$queryRaw<
    { person_id: bigint; organization_id: bigint; expires_at: Date; foster_status: string | null; erased_at: Date | null }[]
  >`
    SELECT l.person_id, p.organization_id, l.expires_at, p.foster_status::text AS foster_status, p.erased_at
      FROM foster_links l JOIN people p ON p.id = l.person_id
     WHERE l.token_hash = ${hashLinkToken(token)} ${tx ? Prisma.sql`FOR UPDATE OF p` : Prisma.empty}`;
  if (!row || row.erased_at) throw notFound(NO_SUCH_LINK);
  if (row.expires_at <= now) {
    throw new ApiError(410, "link_expired", "This foster page's link has expired. Ask the shelter to send you a new one.");
  }
  if (!row.foster_status || !WITH_A_PAGE.has(row.foster_status)) {
    throw new ApiError(410, "link_expired", "This foster page is no longer open. If you think that is a mistake, contact the shelter.");
  }
  return { personId: row.person_id, organizationId: row.organization_id, expiresAt: row.expires_at };
}

/** The foster's own page. */
export async function fosterViewByToken(token: string, now: Date): Promise<FosterView> {
  return viewOf(await openLink(token, now), now);
}

async function viewOf(opened: Opened, now: Date): Promise<FosterView> {
  const person = await db().person.findUniqueOrThrow({
    where: { id: opened.personId },
    select: {
      name: true,
      fosterStatus: true,
      fosterCapacity: true,
      fosterSpecies: true,
      fosterBlackouts: true,
      fosterReadyAt: true,
      organization: { select: { name: true, email: true, phone: true } },
      // Their own open placements only: never another foster's.
      placements: {
        where: { endAt: null },
        orderBy: { startAt: "asc" },
        select: {
          startAt: true,
          expectedEndOn: true,
          pet: { select: { id: true, name: true, photos: { where: { position: 0 }, take: 1, select: { alt: true, width: true, height: true, files: true } } } },
        },
      },
    },
  });
  const { photoBase } = petView(now);
  const placedCount = person.placements.length;
  const capacity = person.fosterCapacity ?? 0;
  return {
    name: person.name,
    organization: person.organization,
    status: person.fosterStatus === "paused" ? "paused" : "active",
    capacity,
    species: person.fosterSpecies as Species[],
    blackouts: (person.fosterBlackouts ?? []) as Blackout[],
    placedCount,
    room: Math.max(0, capacity - placedCount),
    readyAt: person.fosterReadyAt?.toISOString() ?? null,
    animals: person.placements.map((p) => {
      const photo = p.pet.photos[0];
      return {
        id: Number(p.pet.id),
        name: p.pet.name,
        photo: photo
          ? { url: photoUrl(coverFile(photo.files as Record<string, string>), photoBase), alt: photo.alt, width: photo.width, height: photo.height }
          : null,
        since: p.startAt.toISOString(),
        expectedBack: p.expectedEndOn ? p.expectedEndOn.toISOString().slice(0, 10) : null,
      };
    }),
    expiresAt: opened.expiresAt.toISOString(),
  };
}

/** The variant for a card: the smallest at least 480 px wide, else the largest. */
function coverFile(files: Record<string, string>): string {
  const widths = Object.keys(files)
    .map(Number)
    .sort((a, b) => a - b);
  const width = widths.find((w) => w >= 480) ?? widths.at(-1)!;
  return files[String(width)]!;
}

/** The foster changes their capacity, species or blackout days. */
export async function updateFosterPreferences(token: string, patch: FosterPreferencesPatch, now: Date): Promise<FosterView> {
  const opened = await db().$transaction(async (tx) => {
    const opened = await openLink(token, now, tx);
    await tx.person.update({
      where: { id: opened.personId },
      data: {
        ...(patch.capacity !== undefined ? { fosterCapacity: patch.capacity } : {}),
        ...(patch.species !== undefined ? { fosterSpecies: patch.species } : {}),
        ...(patch.blackouts !== undefined ? { fosterBlackouts: [...patch.blackouts].sort((a, b) => a.from.localeCompare(b.from)) } : {}),
        version: { increment: 1 },
        updatedAt: now,
      },
    });
    return opened;
  });
  return viewOf(opened, now);
}

/** "Ready for another": the time staff see on the foster's record. */
export async function markFosterReady(token: string, now: Date): Promise<FosterView> {
  const opened = await db().$transaction(async (tx) => {
    const opened = await openLink(token, now, tx);
    await tx.person.update({ where: { id: opened.personId }, data: { fosterReadyAt: now } });
    return opened;
  });
  return viewOf(opened, now);
}

/** A note about one of the foster's animals now: kept for staff, who are emailed (lib/fosters/mail.ts). */
export async function addFosterNote(token: string, input: NewFosterNote, now: Date): Promise<FosterNote> {
  return db().$transaction(async (tx) => {
    const opened = await openLink(token, now, tx);
    const placed = await tx.petPlacement.findFirst({
      where: { personId: opened.personId, petId: BigInt(input.petId), endAt: null },
      select: { pet: { select: { name: true } } },
    });
    // Not one of theirs (any more): the same answer whether the animal exists or not.
    if (!placed) throw notFound(`Animal ${input.petId} is not in your care, so there is no note to add about it here.`);
    const note = await tx.fosterNote.create({
      data: { organizationId: opened.organizationId, personId: opened.personId, petId: BigInt(input.petId), body: input.text, createdAt: now },
      select: { id: true, petId: true, body: true, createdAt: true },
    });
    await queueFosterMail(tx, { kind: "note", personId: String(opened.personId), noteId: String(note.id) });
    return { id: Number(note.id), petId: Number(note.petId), petName: placed.pet.name, text: note.body, createdAt: note.createdAt.toISOString() };
  });
}

/** What staff see of a foster's page (GET …/people/{personId}/foster-page, people:read). */
export async function getFosterPage(viewer: Viewer, organizationId: number, personId: number, now: Date): Promise<FosterPage> {
  assertMayReadPeople(viewer, organizationId);
  const person = await db().person.findFirst({
    where: { id: BigInt(personId), organizationId: BigInt(organizationId) },
    select: {
      fosterReadyAt: true,
      fosterLink: { select: { createdAt: true, expiresAt: true } },
      fosterNotes: { orderBy: { id: "desc" }, take: 100, select: { id: true, petId: true, body: true, createdAt: true, pet: { select: { name: true } } } },
    },
  });
  if (!person) throw notFound("person", personId);
  const link = person.fosterLink;
  return {
    link: link ? { sentAt: link.createdAt.toISOString(), expiresAt: link.expiresAt.toISOString(), expired: link.expiresAt <= now } : null,
    readyAt: person.fosterReadyAt?.toISOString() ?? null,
    notes: person.fosterNotes.map((n) => ({
      id: Number(n.id),
      petId: Number(n.petId),
      petName: n.pet.name,
      text: n.body,
      createdAt: n.createdAt.toISOString(),
    })),
  };
}
