import { Batcher } from "@/lib/batch";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { staleVersion } from "@/lib/core/conditional";
import { ApiError, notFound } from "@/lib/core/errors";
import { organizationExists } from "@/lib/organizations/queries";
import { organizationForCreate, organizationScope, unknownOrganization, type Tenancy } from "@/lib/organizations/tenancy";
import type { WriteContext } from "@/lib/audit/schemas";
import { recordChange } from "@/lib/audit/service";
import {
  type PetColumnChanges,
  type PlainColumnChanges,
  createPetWithRecords,
  isExternalIdTaken,
  lockPetForUpdate,
  readPetForChange,
  setPhotoPositions,
  updatePetIfVersion,
  updatePetWithRecord,
} from "@/lib/pets/queries/writes";
import { categoryExists, findPetById, findPetIdByExternalId } from "@/lib/pets/queries/lookups";
import { now as clockNow } from "@/lib/clock";
import { followStatus, toStay } from "@/lib/stays/rules";
import type { PlacementRow } from "@/lib/placements/queries";
import { followStays, noOpenStay, placeAtIntake, placementRefusal, toPlacement } from "@/lib/placements/rules";
import { stayTimeOf, type Stay } from "@/lib/stays/schemas";
import { midnightIn, type StayRow, type StayWrite } from "@/lib/stays/queries";
import { presentPet, storedPet, toPet, type PetView, type StoredPet } from "@/lib/pets/present";
import { DEFAULT_CURRENCY, type AdoptionFee } from "@/lib/pets/adoption-fee";
import { PET_FIELDS, type NewPet, type Pet, type PetField, type PetPatch } from "@/lib/pets/schemas/pet";
import { type GoodWith } from "@/lib/pets/schemas/fields";

// The rules of the pets API. Inputs arrive already validated (parse at the
// edge, trust inside); outputs are the API's shapes, ids as JSON numbers.
// Every change to an animal goes through createPet or updatePet, whoever
// asks (the API, the site's pages, the CLI): each writes the row and its
// audit record in one transaction, and the commit writes the change-feed
// event from the record (docs/decisions/005).

function unknownCategory(id: number): ApiError {
  return new ApiError(400, "unknown_category", `There is no category with id ${id}. GET /v1/categories lists them.`, [
    { field: "categoryId", issue: "does not name an existing category" },
  ]);
}

/**
 * Adds an animal with its "created" audit record (and so its event),
 * atomically, in one statement shared with concurrent creates (the hottest
 * write: see insertPetsWithRecords in lib/pets/queries/writes.ts). `tx`
 * lets a caller make the creation part of a larger transaction (the
 * Idempotency-Key record that must commit with the animal or not at all).
 */
export async function createPet(
  input: NewPet,
  context: WriteContext & { tenancy: Tenancy },
  view: PetView,
  tx?: Prisma.TransactionClient,
  options: CreateOptions = {},
): Promise<Pet> {
  const { actor } = context;
  // Where the animal goes: the caller's own organisation, or the one a
  // platform caller names (which must exist: the statement would drop it).
  const organizationId = organizationForCreate(context.tenancy, input.organizationId);
  if (context.tenancy.kind === "platform" && !(await organizationExists(organizationId))) throw unknownOrganization(organizationId);
  // Adding an animal opens its first stay (docs/decisions/023), unless the caller brings the stays itself.
  const firstStay =
    options.stays === "provided"
      ? null
      : {
          at: input.intake?.at ? await firstIntakeAt(organizationId, input.intake.at) : null,
          type: input.intake?.type ?? ("otherIntake" as const),
          subtype: input.intake?.subtype ?? null,
          detail: input.intake?.detail ?? null,
        };
  const create = async (tx: Prisma.TransactionClient | undefined) => {
    const row = await createPetWithRecords(
      tx,
      { ...input, organizationId, firstStay },
      { kind: actor.kind, id: actor.id, name: actor.kind === "staff" ? actor.email : null },
      context.requestId,
    ).catch(async (error: unknown) => {
      throw isExternalIdTaken(error) && input.externalId !== null ? await externalIdTaken(organizationId, input.externalId) : error;
    });
    // No row: the category does not exist (checked in the statement, so the
    // client gets a precise error naming the field rather than a foreign-key failure).
    if (!row) throw unknownCategory(input.categoryId);
    return row;
  };
  const fosterId = firstStay && input.intake?.fosterId;
  if (!fosterId) return toPet(await create(tx), view);
  // Straight into a foster home: created and placed in one transaction (the
  // ordinary create keeps its shared statement), or neither.
  const createAndPlace = async (tx: Prisma.TransactionClient) => {
    const row = await create(tx);
    const petId = Number(row.id);
    const { pet } = await changeIn(tx, petId, { ...context, expectedVersions: undefined }, async (tx, was, { lastStay }) => {
      if (!lastStay || lastStay.outcomeAt) throw noOpenStay(petId, "intake.fosterId", lastStay);
      const place = await placeAtIntake(tx, { petId, organizationId, personId: fosterId, at: lastStay.intakeAt, byStaff: actor.kind === "staff" });
      return { before: {}, placementChange: { action: "placement_started", write: (tx) => place(tx, lastStay.id) } };
    });
    return presentPet(pet, view);
  };
  return tx
    ? createAndPlace(tx)
    : db()
        .$transaction(createAndPlace)
        .catch((error: unknown) => {
          throw placementRefusal(error);
        });
}

export interface CreateOptions {
  /**
   * "provided": the caller writes the animal's stays itself (an import of a
   * shelter's history, which keeps every stay): no first stay is opened.
   */
  stays?: "provided";
}

/** The given intake time of a new animal: never in the future; a day is midnight in the organisation's zone. */
async function firstIntakeAt(organizationId: number, text: string): Promise<Date> {
  const now = clockNow();
  const at = stayTimeOf(text);
  if ("instant" in at) {
    if (at.instant > now) throw intakeInFuture(`now is ${now.toISOString()}`);
    return at.instant;
  }
  const local = await midnightIn(organizationId, at.day);
  if (!local) throw unknownOrganization(organizationId);
  if (at.day > local.today) throw intakeInFuture(`today is ${local.today} in the organisation's time zone`);
  return local.at > now ? now : local.at;
}

const intakeInFuture = (what: string) =>
  new ApiError(400, "invalid_body", `The request body is invalid. intake.at: must not be in the future (${what}).`, [
    { field: "intake.at", issue: `must not be in the future (${what})` },
  ]);

/**
 * Another animal of the organisation has this externalId: the unique index
 * said so (under concurrency too), and the answer names that animal when it
 * can still be found.
 */
async function externalIdTaken(organizationId: number, externalId: string): Promise<ApiError> {
  const holder = await findPetIdByExternalId(organizationId, externalId).catch(() => null);
  const which = holder === null ? "another animal" : `animal ${holder}`;
  return new ApiError(
    409,
    "external_id_taken",
    `Another animal of this organisation already has externalId "${externalId}" (${which}). Each animal's externalId must be unique within its organisation.`,
    [{ field: "externalId", issue: `is already the id of ${which} of this organisation` }],
  );
}

/** The strong ETag of an animal's version: `"3"`. */
const preconditionFailed = (current: number) =>
  staleVersion(current, { changed: "The animal has changed since you read it: it is", readAgain: "Read it again" });

/**
 * An application for this animal is approved: its adoption is under way, and
 * the animal's status follows that application (completing it sells the
 * animal, cancelling it makes it available again). So neither a second
 * approval nor a status changed by hand may go past it: either would leave
 * an approved application beside an animal that takes applications, and the
 * next approval would break the one-approved-per-animal index.
 */
export function adoptionInProgress(petName: string, approvedId: number | bigint | null, asked: "approve" | "change_status"): ApiError {
  const which = approvedId === null ? "Another application" : `Application #${approvedId}`;
  return new ApiError(
    409,
    "adoption_in_progress",
    asked === "approve"
      ? `${which} for ${petName} is already approved: complete or cancel that adoption before approving another application.`
      : `${which} for ${petName} is approved, so its status follows that adoption: complete it (sold) or cancel it (available) in the applications inbox instead of changing the status by hand.`,
  );
}

export interface UpdateOptions extends WriteContext {
  /**
   * Whose animals the caller may change: the lock's statement names the
   * caller's organisation (a platform caller's, any), so an animal of another
   * organisation is "not there" whatever the route checked before.
   */
  tenancy: Tenancy;
  /**
   * If-Match: the versions the client will accept changing. Undefined for no
   * condition (no header, or `*`); empty when nothing the client sent can
   * match (a weak or foreign entity tag), which always fails.
   */
  expectedVersions?: number[];
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The photo ids in a new order: exactly the animal's photos, each once. */
function reorderedPhotos(current: StoredPet["photos"], order: number[]): StoredPet["photos"] {
  const byId = new Map(current.map((p) => [p.id, p]));
  if (order.length !== current.length || order.some((id) => !byId.has(id))) {
    throw new ApiError(400, "invalid_body", `photoOrder must list each of the animal's photos once: ${current.map((p) => p.id).join(", ") || "it has none"}.`, [
      { field: "photoOrder", issue: `must be an order of the animal's photo ids (${current.map((p) => p.id).join(", ") || "none"})` },
    ]);
  }
  return order.map((id) => byId.get(id)!);
}

/** What a change did: the changed fields' old values, and the columns to write (none when only photos changed). */
export interface AppliedChange {
  before: Partial<Record<PetField, unknown>>;
  columns?: PetColumnChanges;
  /** Whether the animal is in care after the change (a stay's outcome decides it); as it was when absent. */
  inCare?: boolean;
  /**
   * A change of the animal's stays (lib/pets/stays.ts), written in the same
   * statement as the animal's update: its record's action, the write, and
   * what the database refusing it (overlap, a second open stay) means for
   * the caller. The animal's status then follows the stay, not the other way round.
   */
  stayChange?: { action: "stay_started" | "stay_ended" | "stay_corrected"; write: StayWrite; refused: (error: unknown) => never };
  /**
   * The change wrote the animal's stays itself, in this transaction under
   * the lock (a history import: changeWithStays), so its status does not
   * move them again (no followStatus).
   */
  staysWritten?: true;
  /**
   * A change of the animal's placements in foster homes (lib/pets/placements.ts),
   * written after the animal's update (so a placement can lie in the stay
   * written with it: an intake straight into a foster home): its record's
   * action (a stay's change keeps the stay's), and the writes, which return
   * the placements they wrote for the audit record.
   */
  placementChange?: {
    action?: "placement_started" | "placement_ended" | "placement_corrected";
    write: (tx: Prisma.TransactionClient, stay: StayRow | null) => Promise<PlacementRow[]>;
  };
}

/** What a change's rules know of the animal besides its fields, read with it under its lock. */
export interface ChangeContext {
  /** Its latest stay: the open one, if any (only the latest can be open). */
  lastStay: StayRow | null;
  /** Its approved adoption application, which holds its status. */
  approvedApplication: bigint | null;
  inCare: boolean;
  /** How many stays it has. */
  stayCount: number;
  /** Its open placement in a foster home, if any. */
  openPlacementId: bigint | null;
}

/**
 * The one way an animal changes, whatever changes it (a patch, a photo added
 * or removed, a stay recorded): in one transaction, the row is locked (and
 * read with its latest stay and approved application), If-Match is checked,
 * `apply` works out the change (null: nothing to change), and one statement
 * writes it: the columns, the version bumped, and the stay that goes with it
 * (its own, or the one a sale ends). Then the audit record, from which the
 * commit writes the event. Returns the animal after the change.
 */
export async function changePet(
  id: number,
  options: UpdateOptions,
  apply: (tx: Prisma.TransactionClient, was: StoredPet, context: ChangeContext) => Promise<AppliedChange | null>,
): Promise<StoredPet> {
  return (await changePetAndStay(id, options, apply)).pet;
}

/** changePet, with the stay the change wrote (null: none). */
export async function changePetAndStay(
  id: number,
  options: UpdateOptions,
  apply: (tx: Prisma.TransactionClient, was: StoredPet, context: ChangeContext) => Promise<AppliedChange | null>,
): Promise<{ pet: StoredPet; stay: Stay | null }> {
  // The placements' rules hold at commit too (a stay's corrected dates must
  // still hold its placements): the database's refusal, said as a 409.
  return db()
    .$transaction((tx) => changeIn(tx, id, options, apply))
    .catch((error: unknown) => {
      throw placementRefusal(error);
    });
}

/** changePetAndStay inside the caller's transaction (a new animal placed with a foster before its creation commits). */
export async function changeIn(
  tx: Prisma.TransactionClient,
  id: number,
  options: UpdateOptions,
  apply: (tx: Prisma.TransactionClient, was: StoredPet, context: ChangeContext) => Promise<AppliedChange | null>,
): Promise<{ pet: StoredPet; stay: Stay | null }> {
  // Locked until the commit: the record's "before" is exactly the row
  // this change replaces, and no other writer can slip in after the check.
  const current = await lockPetForUpdate(tx, id, organizationScope(options.tenancy));
  if (!current) throw notFound("animal", id);
  const was = storedPet(current.row);
  const expected = options.expectedVersions ?? [was.version];
  if (!expected.includes(was.version)) throw preconditionFailed(was.version);
  const context: ChangeContext = {
    lastStay: current.lastStay,
    approvedApplication: current.approvedApplication,
    inCare: current.row.inCare,
    stayCount: current.stayCount,
    openPlacementId: current.openPlacementId,
  };
  const change = await apply(tx, was, context);
  if (!change) return { pet: was, stay: null };
  // A change of status moves the stays with it (docs/decisions/023): sold
  // ends the open stay with an adoption (its own record, so the feed says
  // pet.stay.ended too, at the same version); leaving sold undoes it.
  const status = change.columns?.status;
  const followed = !change.stayChange && !change.staysWritten && status !== undefined ? followStatus(context, was.status, status, clockNow()) : null;
  const inCare = change.inCare ?? followed?.inCare;
  const written = await updatePetIfVersion(tx, id, expected, change.columns ?? {}, {
    inCare: inCare === context.inCare ? undefined : inCare,
    stay: change.stayChange?.write ?? followed?.write,
  }).catch((error: unknown) => (change.stayChange ? change.stayChange.refused(error) : Promise.reject(error)));
  if (!written) throw preconditionFailed(was.version);
  const pet = storedPet(written.row);
  const stay = written.stay ? toStay(written.stay) : null;
  // The placements follow the stays (an outcome ends the open one at its
  // instant), then the change's own placements are written.
  const placements = [
    ...(await followStays(tx, context, {
      stay: written.stay,
      reopened: followed?.action === "reopened",
      staysWritten: change.staysWritten === true,
      corrected: change.stayChange?.action === "stay_corrected",
    })),
    ...((await change.placementChange?.write(tx, written.stay)) ?? []),
  ].map(toPlacement);
  const record = { pet, before: change.before, stay: stay ?? undefined, placements };
  if (change.stayChange) {
    await recordChange(tx, { ...record, action: change.stayChange.action }, options);
    return { pet, stay };
  }
  if (followed?.action === "ended") {
    await recordChange(tx, { ...record, action: "updated", placements: [] }, options);
    await recordChange(tx, { ...record, action: "stay_ended", before: {} }, options);
    return { pet, stay };
  }
  await recordChange(tx, { ...record, action: change.placementChange?.action ?? "updated" }, options);
  return { pet, stay };
}

/**
 * Applies a merge patch. Only fields whose value really changes count: a
 * patch that changes nothing returns the animal as it is, with no new
 * version and no audit record (but still 412 when If-Match does not match).
 *
 * A patch of the animal's own columns (neither its status, which an approved
 * adoption holds, nor its category, nor its photos' order) is read, worked
 * out, and written with its audit record in one statement that applies only
 * if the animal is still at the version it was read at (updatePlainly): the
 * row is locked for that statement's commit, not across round trips. The
 * others take changePet's locked transaction.
 */
export async function updatePet(id: number, patch: PetPatch, options: UpdateOptions & { view: PetView }): Promise<Pet> {
  const plain = patch.status === undefined && patch.categoryId === undefined && patch.photoOrder === undefined;
  const pet = await (plain ? updatePlainly(id, patch, options) : updateLocked(id, patch, options)).catch(async (error: unknown) => {
    // The unique index refused the new externalId (another animal got it, maybe a moment ago).
    if (!isExternalIdTaken(error) || typeof patch.externalId !== "string") throw error;
    const row = await findPetById(id);
    throw row ? await externalIdTaken(Number(row.organizationId), patch.externalId) : error;
  });
  return presentPet(pet, options.view);
}

/** How many times a plain update re-reads an animal that another writer changed between its read and its write. */
const PLAIN_ATTEMPTS = 8;

/**
 * A plain patch (see updatePet): read, work out, write if still at that
 * version. Another writer in between (the write finds the row at a newer
 * version) means reading again: with If-Match that read answers 412, as the
 * locked way would; without, the patch applies to the newer version. After
 * PLAIN_ATTEMPTS the locked way, which always gets its turn.
 */
function updatePlainly(id: number, patch: PetPatch, options: UpdateOptions): Promise<StoredPet> {
  return plainUpdates.run(String(id), () => readAndWrite(id, patch, options));
}

/**
 * One animal's plain updates in this process go one after the other (one
 * read and one statement each): concurrent ones would all read the same
 * version, one would win, and every other would read and try again, each
 * retry another round trip and a turn waiting on the row. Other processes'
 * changes still meet at the version check.
 */
const plainUpdates = new Batcher<() => Promise<StoredPet>, StoredPet>(async ([work]) => [await work!()], 1);

async function readAndWrite(id: number, patch: PetPatch, options: UpdateOptions): Promise<StoredPet> {
  const organizationId = organizationScope(options.tenancy);
  const { actor } = options;
  for (let attempt = 0; attempt < PLAIN_ATTEMPTS; attempt++) {
    const current = await readPetForChange(id, organizationId);
    if (!current) throw notFound("animal", id);
    const was = storedPet(current);
    const expected = options.expectedVersions ?? [was.version];
    if (!expected.includes(was.version)) throw preconditionFailed(was.version);
    const change = patchChange(patch, was);
    if (!change) return was;
    const updated = await updatePetWithRecord({
      id,
      organizationId,
      version: was.version,
      columns: change.columns as PlainColumnChanges,
      before: change.before,
      actor: { kind: actor.kind, id: actor.id, name: actor.kind === "staff" ? actor.email : null },
      requestId: options.requestId,
    });
    if (updated) return storedPet(updated);
  }
  return updateLocked(id, patch, options);
}

/**
 * What an animal leaving the shelter other than by adoption does beyond the
 * animal: its open and approved applications are closed, their applicants
 * told (lib/applications closeApplicationsOfAnimalLeavingCare). The
 * applications lie above the pets (docs/architecture.md), so the routes that
 * record outcomes and corrections hand it in; every caller must. It runs in
 * the change's transaction, under the animal's lock, and says whether it
 * cancelled the approved application, whose adoption held the status.
 */
export type LeavingCare = (tx: Prisma.TransactionClient, petId: number, context: WriteContext) => Promise<{ approvedCancelled: boolean }>;

/** What changeWithStays's `plan` worked out under the lock: the profile's patch, whether the animal is in care after it, whether it wrote stays. */
export interface StaysAndProfile {
  patch: PetPatch | null;
  inCare: boolean | null;
  wroteStays: boolean;
}

/**
 * A change of an animal's stays, care and profile as one change of the
 * animal (a history import of an existing animal, issue 48): in changePet's
 * transaction, under the animal's lock, `plan` reads the stays, works the
 * change out from the animal as locked, and writes the stays; then the
 * profile is patched, `in_care` set and the version bumped in one statement
 * with its audit record (and so its event), as every change. A status the
 * patch changes under an approved adoption is refused (409
 * adoption_in_progress, as PATCH) and the whole change with it: nothing of
 * it is recorded. Null from `plan`: nothing to change.
 */
export async function changeWithStays(
  id: number,
  options: UpdateOptions,
  plan: (tx: Prisma.TransactionClient, was: StoredPet, context: ChangeContext) => Promise<StaysAndProfile | null>,
  leavingCare: LeavingCare,
): Promise<StoredPet> {
  return changePet(id, options, async (tx, was, context) => {
    const planned = await plan(tx, was, context);
    if (!planned) return null;
    let change = planned.patch ? patchChange(planned.patch, was) : null;
    // Out of care by the file, as by an outcome recorded here: its applications closed, an animal pending on the cancelled approval available.
    if (context.inCare && planned.inCare === false) {
      const { approvedCancelled } = await leavingCare(tx, id, { actor: options.actor, requestId: options.requestId });
      if (approvedCancelled) {
        context = { ...context, approvedApplication: null };
        if (was.status === "pending" && change?.columns.status === undefined) change = patchChange({ ...(planned.patch ?? {}), status: "available" }, was);
      }
    }
    if (change?.columns.status !== undefined && context.approvedApplication !== null)
      throw adoptionInProgress(was.name, context.approvedApplication, "change_status");
    if (change?.columns.categoryId !== undefined && !(await categoryExists(change.columns.categoryId, tx))) throw unknownCategory(change.columns.categoryId);
    const inCare = planned.inCare ?? undefined;
    if (!change && inCare === undefined && !planned.wroteStays) return null;
    return { before: change?.before ?? {}, columns: change?.columns ?? {}, inCare, staysWritten: true };
  });
}

/** Any patch, in changePet's locked transaction (status under the adoption check, category checked, photos reordered). */
function updateLocked(id: number, patch: PetPatch, options: UpdateOptions): Promise<StoredPet> {
  return changePet(id, options, async (tx, was, { approvedApplication }) => {
    const change = patchChange(patch, was);
    if (!change) return null;
    const { before, columns, photos } = change;
    // Read under the animal's lock, which approvals take too (changePet).
    if (columns.status !== undefined && approvedApplication !== null) throw adoptionInProgress(was.name, approvedApplication, "change_status");
    if (columns.categoryId !== undefined && !(await categoryExists(columns.categoryId, tx))) throw unknownCategory(columns.categoryId);
    if (photos)
      await setPhotoPositions(
        tx,
        id,
        photos.map((p) => p.id),
      );
    return { before, columns };
  });
}

/** What a patch changes on `was`: the changed fields' old values, the new column values and photo order; null when nothing changes. */
function patchChange(
  patch: PetPatch,
  was: StoredPet,
): { before: Partial<Record<PetField, unknown>>; columns: PetColumnChanges; photos?: StoredPet["photos"] } | null {
  const wanted: Partial<StoredPet> = Object.fromEntries(
    SCALAR_PATCH_FIELDS.filter((field) => patch[field] !== undefined).map((field) => [field, patch[field]]),
  );
  // goodWith merges: the answers not sent stay; null resets all three.
  if (patch.goodWith !== undefined) {
    const merged: GoodWith = patch.goodWith === null ? { children: null, dogs: null, cats: null } : { ...was.goodWith };
    if (patch.goodWith) for (const [k, v] of Object.entries(patch.goodWith)) if (v !== undefined) merged[k as keyof GoodWith] = v;
    wanted.goodWith = merged;
  }
  if (patch.adoptionFee !== undefined) wanted.adoptionFee = mergedFee(was.adoptionFee, patch.adoptionFee);
  if (patch.photoOrder !== undefined) wanted.photos = reorderedPhotos(was.photos, patch.photoOrder);

  const before: Partial<Record<PetField, unknown>> = {};
  const changes: Partial<StoredPet> = {};
  for (const [field, value] of Object.entries(wanted) as [PetField, unknown][]) {
    if (!sameValue(value, was[field])) {
      before[field] = was[field];
      Object.assign(changes, { [field]: value });
    }
  }
  if (Object.keys(changes).length === 0) return null;
  const { photos, ...columns } = changes;
  return { before, columns, photos };
}

/** The fields that merge (goodWith, adoptionFee) or are reordered (photos, by photoOrder) rather than replaced. */
const MERGED = ["goodWith", "adoptionFee", "photos"] as const;
/** The patch's fields that replace a value as they are. */
const SCALAR_PATCH_FIELDS = PET_FIELDS.filter((f): f is Exclude<PetField, (typeof MERGED)[number]> => !(MERGED as readonly string[]).includes(f));

/**
 * The fee after a patch: the parts sent replace the fee's, the others stay
 * (null makes it unknown). An animal without a fee gets one only with an
 * amount; its currency is USD and it is not waived unless the patch says so.
 */
function mergedFee(was: AdoptionFee | null, patch: NonNullable<PetPatch["adoptionFee"]> | null): AdoptionFee | null {
  if (patch === null) return null;
  const amountCents = patch.amountCents ?? was?.amountCents;
  if (amountCents === undefined) {
    throw new ApiError(400, "invalid_body", "The request body is invalid. adoptionFee.amountCents: is required, since the animal has no fee yet.", [
      { field: "adoptionFee.amountCents", issue: "is required (the animal has no fee yet)" },
    ]);
  }
  return { amountCents, currency: patch.currency ?? was?.currency ?? DEFAULT_CURRENCY, waived: patch.waived ?? was?.waived ?? false };
}
