import { Batcher } from "@/lib/batch";
import { query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { errorChain, isDatabaseUnavailable } from "@/lib/core/errors";
import type { IntakeType } from "@/lib/stays/schemas";
import { lastStayJoin, stayColumnsOf, stayOfRow, stayWriteSql, type StayColumnsRaw, type StayRow, type StayWrite } from "@/lib/stays/queries";
import { type ListingField, type NewPet } from "@/lib/pets/schemas/pet";
import { type PetSex, type PetSize, type PetStatus } from "@/lib/pets/schemas/fields";
import { type PetRow, type RawPetRow, fromRaw, PET_COLUMNS, PHOTOS_JOIN } from "@/lib/pets/queries/rows";

// Creating and changing animals: each write and its audit record (and event) in one statement.

/** The most creates sent as one statement. */
const CREATE_BATCH_MAX = 100;

/** A failure of one item of a batch whose other items went through. */
class Failed {
  constructor(readonly error: unknown) {}
}

/** Everything an animal is created with (NewPet after parsing). */
export type NewPetFields = {
  name: string;
  categoryId: number;
  /** The organisation the animal is at (decided by the caller's tenancy: lib/organizations/tenancy.ts). */
  organizationId: number;
  status: PetStatus;
  sex: PetSex;
  size: PetSize | null;
  birthDate: string | null;
  breed: string | null;
  description: string | null;
  goodWith: { children?: boolean | null; dogs?: boolean | null; cats?: boolean | null };
  /**
   * The first stay the animal opens with (docs/decisions/023): its intake
   * (`at` null: the intake date's midnight in the organisation's zone, else
   * now); a sold animal's ends with an adoption at once. Null: none (a caller
   * that writes the stays itself, an import).
   */
  firstStay?: { at: Date | null; type: IntakeType; subtype: string | null } | null;
  /**
   * False: created out of care (a history import of an animal whose last
   * stay ended other than by adoption), so the animal is never in care, not
   * even between its creation and its stays in the same transaction.
   */
  inCare?: boolean;
} & ListingValues;

/** The listing sites' fields as the API takes them (the fee as one object). */
type ListingValues = Pick<NewPet, ListingField>;

/** Who an audit record names: the staff member's email, or null to read the API key's current name in the statement. */
export interface AuditActor {
  kind: "api_key" | "staff";
  id: number;
  name: string | null;
}

/** One animal to add, with who adds it and in which request (its audit record's and event's facts). */
export interface PetToCreate {
  pet: NewPetFields;
  actor: AuditActor;
  requestId: string;
}

/**
 * Adds animals, each with its "created" audit record, in one statement: a
 * single round trip and, outside a larger transaction, one atomic commit for
 * all of them. Each record's `pet.created` event is written at that commit
 * from the record (a deferred trigger on pet_audit, which also gives it its
 * position in the feed). An animal whose category does not exist is not
 * written, and has no row in the answer (nor one whose organisation does
 * not: the caller checked it exists before); `ord` (1-based) says which input
 * each row belongs to. The records are exactly those recordChange writes for
 * an update: `after` is the animal as the API shows it (toPet), `before` is
 * null, and an API key is named as it is called at this moment.
 *
 * The inputs travel as arrays, so there is one prepared statement whatever
 * the number of animals. Ids are drawn from the sequence before the insert,
 * so each returned row can be matched to its input.
 */
export function insertPetsWithRecords(items: PetToCreate[]): Prisma.Sql {
  const pets = items.map((i) => i.pet);
  return Prisma.sql`
    WITH input AS (
      SELECT i.ord, nextval('pets_id_seq') AS id, i.name, c.id AS category_id, o.id AS organization_id, i.status::"PetStatus" AS status,
             i.sex::"PetSex" AS sex, i.size::"PetSize" AS size, i.birth_date, i.breed, i.description,
             i.good_with_children, i.good_with_dogs, i.good_with_cats,
             i.external_id, i.secondary_breed, i.mixed_breed, ARRAY(SELECT jsonb_array_elements_text(i.colors)) AS colors,
             i.coat_length::"PetCoatLength" AS coat_length, i.spayed_neutered, i.house_trained, i.declawed, i.shots_current,
             i.special_needs, i.special_needs_notes, i.adoption_fee_cents, i.adoption_fee_currency, i.adoption_fee_waived,
             i.intake_date, i.video_url, ARRAY(SELECT jsonb_array_elements_text(i.tags)) AS tags, i.list_on_other_sites,
             i.actor_kind::"ActorKind" AS actor_kind, i.actor_id,
             COALESCE(NULLIF(i.actor_name, ''), (SELECT name FROM api_keys WHERE id = i.actor_id)) AS actor_name, i.request_id,
             i.open_stay, i.stay_type, i.stay_subtype, i.in_care,
             -- The first stay's intake: as given, else the intake date's midnight in the shelter's zone, else now.
             COALESCE(i.stay_at, CASE WHEN i.intake_date IS NOT NULL AND i.intake_date <= (now() AT TIME ZONE o.time_zone)::date
                                      THEN i.intake_date::timestamp AT TIME ZONE o.time_zone END, now()) AS stay_at
        FROM unnest(${pets.map((p) => p.name)}::text[], ${pets.map((p) => BigInt(p.categoryId))}::bigint[],
                    ${pets.map((p) => BigInt(p.organizationId))}::bigint[],
                    ${pets.map((p) => p.status)}::text[], ${pets.map((p) => p.sex)}::text[],
                    ${pets.map((p) => p.size)}::text[], ${pets.map((p) => p.birthDate)}::date[],
                    ${pets.map((p) => p.breed)}::text[], ${pets.map((p) => p.description)}::text[],
                    ${pets.map((p) => p.goodWith.children ?? null)}::boolean[], ${pets.map((p) => p.goodWith.dogs ?? null)}::boolean[],
                    ${pets.map((p) => p.goodWith.cats ?? null)}::boolean[],
                    ${pets.map((p) => p.externalId)}::text[], ${pets.map((p) => p.secondaryBreed)}::text[], ${pets.map((p) => p.mixedBreed)}::boolean[],
                    -- Lists travel as JSON: an array of arrays would have to be rectangular.
                    ${pets.map((p) => JSON.stringify(p.colors))}::jsonb[], ${pets.map((p) => p.coatLength)}::text[],
                    ${pets.map((p) => p.spayedNeutered)}::boolean[], ${pets.map((p) => p.houseTrained)}::boolean[],
                    ${pets.map((p) => p.declawed)}::boolean[], ${pets.map((p) => p.shotsCurrent)}::boolean[],
                    ${pets.map((p) => p.specialNeeds)}::boolean[], ${pets.map((p) => p.specialNeedsNotes)}::text[],
                    ${pets.map((p) => p.adoptionFee?.amountCents ?? null)}::int[], ${pets.map((p) => p.adoptionFee?.currency ?? null)}::text[],
                    ${pets.map((p) => p.adoptionFee?.waived ?? null)}::boolean[], ${pets.map((p) => p.intakeDate)}::date[],
                    ${pets.map((p) => p.videoUrl)}::text[], ${pets.map((p) => JSON.stringify(p.tags))}::jsonb[],
                    ${pets.map((p) => p.listOnOtherSites)}::boolean[],
                    ${items.map((i) => i.actor.kind)}::text[],
                    ${items.map((i) => BigInt(i.actor.id))}::bigint[], ${items.map((i) => i.actor.name ?? "")}::text[],
                    ${items.map((i) => i.requestId)}::text[],
                    ${pets.map((p) => p.firstStay !== null)}::boolean[], ${pets.map((p) => p.firstStay?.at ?? null)}::timestamptz[],
                    ${pets.map((p) => p.firstStay?.type ?? "otherIntake")}::text[], ${pets.map((p) => p.firstStay?.subtype ?? null)}::text[],
                    ${pets.map((p) => p.inCare ?? true)}::boolean[])
             WITH ORDINALITY AS i(name, category_id, organization_id, status, sex, size, birth_date, breed, description,
                                  good_with_children, good_with_dogs, good_with_cats,
                                  external_id, secondary_breed, mixed_breed, colors, coat_length, spayed_neutered, house_trained,
                                  declawed, shots_current, special_needs, special_needs_notes, adoption_fee_cents,
                                  adoption_fee_currency, adoption_fee_waived, intake_date, video_url, tags, list_on_other_sites,
                                  actor_kind, actor_id, actor_name, request_id, open_stay, stay_at, stay_type, stay_subtype, in_care, ord)
        JOIN categories c ON c.id = i.category_id
        JOIN organizations o ON o.id = i.organization_id
    ), pet AS (
      INSERT INTO pets (id, name, category_id, organization_id, status, sex, size, birth_date, breed, description, good_with_children, good_with_dogs, good_with_cats,
                        in_care, ${LISTING_COLUMN_LIST})
      SELECT id, name, category_id, organization_id, status, sex, size, birth_date, breed, description, good_with_children, good_with_dogs, good_with_cats,
             in_care, ${LISTING_COLUMN_LIST}
        FROM input ORDER BY ord
      RETURNING *
    ), shown AS (
      SELECT p.id, p.version, i.ord, i.actor_kind, i.actor_id, i.actor_name, i.request_id, ${storedPetJson(Prisma.sql`p`, Prisma.sql`'[]'::jsonb`)} AS json
        FROM pet p JOIN input i ON i.id = p.id
    ), audit AS (
      INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, after)
      SELECT id, 'created', version, actor_kind, actor_id, actor_name, request_id, json FROM shown ORDER BY ord
    ), stay AS (
      -- The first stay (lib/stays): a sold animal's ends with its adoption at once.
      INSERT INTO pet_stays (pet_id, organization_id, intake_at, intake_type, intake_subtype, outcome_at, outcome_type)
      SELECT p.id, p.organization_id, i.stay_at, i.stay_type::"IntakeType", i.stay_subtype,
             CASE WHEN p.status = 'sold' THEN GREATEST(i.stay_at, now()) END, CASE WHEN p.status = 'sold' THEN 'adoption'::"OutcomeType" END
        FROM pet p JOIN input i ON i.id = p.id WHERE i.open_stay
    )
    SELECT i.ord::int AS ord, ${PET_COLUMNS}
      FROM pet p JOIN input i ON i.id = p.id LEFT JOIN LATERAL (SELECT '[]'::jsonb AS photos) ph ON true`;
}

const LISTING_COLUMN_LIST = Prisma.raw(
  `external_id, secondary_breed, mixed_breed, colors, coat_length, spayed_neutered, house_trained, declawed, shots_current,
   special_needs, special_needs_notes, adoption_fee_cents, adoption_fee_currency, adoption_fee_waived, intake_date, video_url, tags, list_on_other_sites`,
);

/**
 * An animal as its audit record (and so its event) keeps it: the Pet's
 * fields with its photos' files instead of URLs, and no ageGroup (both are
 * worked out when the record is shown: lib/pets/present.ts). The same shape
 * as storedPet() in lib/pets/present.ts builds for updates.
 */
function storedPetJson(p: Prisma.Sql, photos: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`jsonb_build_object('id', ${p}.id, 'name', ${p}.name, 'categoryId', ${p}.category_id,
    'organizationId', ${p}.organization_id, 'status', ${p}.status,
    'version', ${p}.version, 'sex', ${p}.sex, 'size', ${p}.size, 'birthDate', ${p}.birth_date, 'breed', ${p}.breed,
    'description', ${p}.description,
    'goodWith', jsonb_build_object('children', ${p}.good_with_children, 'dogs', ${p}.good_with_dogs, 'cats', ${p}.good_with_cats),
    'externalId', ${p}.external_id, 'secondaryBreed', ${p}.secondary_breed, 'mixedBreed', ${p}.mixed_breed, 'colors', to_jsonb(${p}.colors),
    'coatLength', ${p}.coat_length, 'spayedNeutered', ${p}.spayed_neutered, 'houseTrained', ${p}.house_trained, 'declawed', ${p}.declawed,
    'shotsCurrent', ${p}.shots_current, 'specialNeeds', ${p}.special_needs, 'specialNeedsNotes', ${p}.special_needs_notes,
    'adoptionFee', CASE WHEN ${p}.adoption_fee_cents IS NULL THEN NULL
                        ELSE jsonb_build_object('amountCents', ${p}.adoption_fee_cents, 'currency', ${p}.adoption_fee_currency, 'waived', ${p}.adoption_fee_waived) END,
    'intakeDate', ${p}.intake_date, 'videoUrl', ${p}.video_url, 'tags', to_jsonb(${p}.tags), 'listOnOtherSites', ${p}.list_on_other_sites,
    'photos', ${photos})`;
}

type CreatedRow = RawPetRow & { ord: number };

/** Runs insertPetsWithRecords; each input's row, or null when its category does not exist. */
async function insertPets(items: PetToCreate[], tx?: Prisma.TransactionClient): Promise<(PetRow | null)[]> {
  const sql = insertPetsWithRecords(items);
  const rows = tx ? await tx.$queryRaw<CreatedRow[]>(sql) : await query<CreatedRow>(sql);
  const byOrd = new Map(rows.map((r) => [Number(r.ord), fromRaw(r)]));
  return items.map((_, i) => byOrd.get(i + 1) ?? null);
}

/**
 * Creates made at the same moment (without a transaction of their caller's)
 * go to PostgreSQL together: one statement and one commit (one WAL flush, one
 * turn of the feed's commit lock) for the lot, instead of one each
 * (lib/batch.ts). Each request still gets its own answer only after the
 * commit. If the statement fails for a reason other than the database being
 * away, the creates are retried one by one, so that one bad input cannot
 * fail the others.
 */
const creates = new Batcher<PetToCreate, PetRow | null | Failed>(async (items) => {
  try {
    return await insertPets(items);
  } catch (error) {
    if (items.length === 1 || isDatabaseUnavailable(error)) throw error;
    return Promise.all(
      items.map((item) =>
        insertPets([item]).then(
          ([row]) => row!,
          (failure: unknown) => new Failed(failure),
        ),
      ),
    );
  }
}, CREATE_BATCH_MAX);

/** Adds one animal with its records: batched with concurrent creates, or inside the caller's transaction. */
export async function createPetWithRecords(
  tx: Prisma.TransactionClient | undefined,
  pet: PetToCreate["pet"],
  actor: AuditActor,
  requestId: string,
): Promise<PetRow | null> {
  const item = { pet, actor, requestId };
  if (tx) return (await insertPets([item], tx))[0]!;
  const result = await creates.run("create", item);
  if (result instanceof Failed) throw result.error;
  return result;
}

/** An animal read under its lock (lockPetForUpdate), with what its change's rules need to know of it. */
export interface LockedPet {
  row: PetRow;
  /** Its latest stay (by intake): the open one, if any, since only the latest can be open. */
  lastStay: StayRow | null;
  /** Its approved adoption application, if any (at most one: a unique index). */
  approvedApplication: bigint | null;
  /** How many stays it has (a new intake past STAYS_PER_ANIMAL_MAX is refused). */
  stayCount: number;
  /** Its open placement in a foster home, if any (at most one: a unique index). */
  openPlacementId: bigint | null;
}

/**
 * The row as it is now, locked until the transaction ends, so that the
 * "before" of its audit record is exactly what the update replaced. Only an
 * animal of `organizationId` (undefined: of any, for a platform caller): the
 * tenancy check and the lock are one statement. The read after it brings
 * the animal's latest stay and approved application along, so the rules of
 * a change (a sale ends the open stay, an approved adoption holds the
 * status) cost no round trip of their own.
 */
export async function lockPetForUpdate(tx: Prisma.TransactionClient, id: number, organizationId: number | undefined): Promise<LockedPet | null> {
  // Locked first, then read in a statement of its own: a statement that waits
  // for the lock reads the other tables (photos, stays) as they were before
  // it waited, and FOR UPDATE cannot sit beside the photos' aggregate anyway.
  const org = organizationId === undefined ? null : BigInt(organizationId);
  const locked = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM pets WHERE id = ${BigInt(id)} AND (${org}::bigint IS NULL OR organization_id = ${org}::bigint) FOR UPDATE`;
  if (!locked.length) return null;
  const rows = await tx.$queryRaw<
    (RawPetRow & StayColumnsRaw & { approvedApplication: bigint | null; stayCount: number; openPlacementId: bigint | null })[]
  >(Prisma.sql`
    SELECT ${PET_COLUMNS}, ${stayColumnsOf("ls")},
           (SELECT a.id FROM adoption_applications a WHERE a.pet_id = p.id AND a.state = 'approved' LIMIT 1) AS "approvedApplication",
           (SELECT count(*)::int FROM pet_stays st WHERE st.pet_id = p.id) AS "stayCount",
           (SELECT pl.id FROM pet_placements pl WHERE pl.pet_id = p.id AND pl.end_at IS NULL) AS "openPlacementId"
      FROM pets p ${PHOTOS_JOIN} ${lastStayJoin("ls")} WHERE p.id = ${BigInt(id)}`);
  const row = rows[0];
  if (!row) return null;
  return {
    row: petOfRow(row),
    lastStay: stayOfRow(row),
    approvedApplication: row.approvedApplication === null ? null : BigInt(row.approvedApplication),
    stayCount: Number(row.stayCount),
    openPlacementId: row.openPlacementId === null ? null : BigInt(row.openPlacementId),
  };
}

/** The animal's own columns of a row that also holds a stay's ("stay.*") or other columns. */
function petOfRow(row: RawPetRow & Record<string, unknown>): PetRow {
  const own = Object.fromEntries(
    Object.entries(row).filter(([k]) => !k.startsWith("stay.") && !["approvedApplication", "stayCount", "openPlacementId"].includes(k)),
  );
  return fromRaw(own as RawPetRow);
}

/** The animal's columns a change writes (only those given). */
export type PetColumnChanges = {
  name?: string;
  categoryId?: number;
  status?: PetStatus;
  sex?: PetSex;
  size?: PetSize | null;
  birthDate?: string | null;
  breed?: string | null;
  description?: string | null;
  goodWith?: { children: boolean | null; dogs: boolean | null; cats: boolean | null };
} & Partial<ListingValues>;

/** An animal's update as updatePetIfVersion wrote it: the animal after it, and the stay written with it. */
export interface WrittenChange {
  row: PetRow;
  stay: StayRow | null;
}

/**
 * One statement: the animal's columns changed and its version bumped (only
 * if the version is still one of `versions`), whether it is in care set, and
 * the stay written with it (its new intake, its outcome); the animal read
 * back with its photos. Null when the version no longer matches (or the row
 * is gone), and then no stay is written either.
 */
export async function updatePetIfVersion(
  tx: Prisma.TransactionClient,
  id: number,
  versions: number[],
  changes: PetColumnChanges,
  also: { inCare?: boolean; stay?: StayWrite } = {},
): Promise<WrittenChange | null> {
  const sets = [...columnSets(changes), Prisma.sql`version = version + 1`];
  if (changes.status !== undefined) sets.unshift(Prisma.sql`status = ${changes.status}::"PetStatus"`);
  if (changes.categoryId !== undefined) sets.unshift(Prisma.sql`category_id = ${BigInt(changes.categoryId)}::bigint`);
  if (also.inCare !== undefined) sets.push(Prisma.sql`in_care = ${also.inCare}::boolean`);
  const stay = also.stay;
  const rows = await tx.$queryRaw<(RawPetRow & StayColumnsRaw)[]>(Prisma.sql`
    WITH pet AS (
      UPDATE pets SET ${Prisma.join(sets, ", ")} WHERE id = ${BigInt(id)} AND version = ANY(${versions}::int[]) RETURNING *
    )${stay ? Prisma.sql`, stay AS (${stayWriteSql(stay)})` : Prisma.empty}
    SELECT ${PET_COLUMNS}${stay ? Prisma.sql`, ${stayColumnsOf("s")}` : Prisma.empty}
      FROM pet p ${PHOTOS_JOIN} ${stay ? Prisma.sql`LEFT JOIN stay s ON true` : Prisma.empty}`);
  const row = rows[0];
  if (!row) return null;
  return { row: petOfRow(row), stay: stay ? stayOfRow(row) : null };
}

/**
 * The animal as it is now, read without a lock (an update's first step,
 * lib/pets/service.ts updatePet): only an animal of `organizationId`
 * (undefined: of any). Always the primary: what a change starts from must
 * be the latest version, not a replica's.
 */
export async function readPetForChange(id: number, organizationId: number | undefined): Promise<PetRow | null> {
  const rows = await query<RawPetRow>(readForChangeSql(id, organizationId));
  return rows[0] ? fromRaw(rows[0]) : null;
}

export function readForChangeSql(id: number, organizationId: number | undefined): Prisma.Sql {
  const org = organizationId === undefined ? null : BigInt(organizationId);
  return Prisma.sql`SELECT ${PET_COLUMNS} FROM pets p ${PHOTOS_JOIN} WHERE p.id = ${BigInt(id)} AND (${org}::bigint IS NULL OR p.organization_id = ${org}::bigint)`;
}

/** Each changeable column but status and category (updatePetIfVersion adds them) as SQL, with the type PostgreSQL needs for its parameter. */
function columnSets(changes: PetColumnChanges): Prisma.Sql[] {
  const sets: Prisma.Sql[] = [];
  const set = (column: string, value: unknown, type: string) => sets.push(Prisma.sql`${Prisma.raw(column)} = ${value}::${Prisma.raw(type)}`);
  if (changes.name !== undefined) set("name", changes.name, "text");
  if (changes.sex !== undefined) set("sex", changes.sex, '"PetSex"');
  if (changes.size !== undefined) set("size", changes.size, '"PetSize"');
  if (changes.birthDate !== undefined) set("birth_date", changes.birthDate, "date");
  if (changes.breed !== undefined) set("breed", changes.breed, "text");
  if (changes.description !== undefined) set("description", changes.description, "text");
  if (changes.goodWith !== undefined) {
    set("good_with_children", changes.goodWith.children, "boolean");
    set("good_with_dogs", changes.goodWith.dogs, "boolean");
    set("good_with_cats", changes.goodWith.cats, "boolean");
  }
  if (changes.externalId !== undefined) set("external_id", changes.externalId, "text");
  if (changes.secondaryBreed !== undefined) set("secondary_breed", changes.secondaryBreed, "text");
  if (changes.mixedBreed !== undefined) set("mixed_breed", changes.mixedBreed, "boolean");
  if (changes.colors !== undefined) set("colors", changes.colors, "text[]");
  if (changes.coatLength !== undefined) set("coat_length", changes.coatLength, '"PetCoatLength"');
  if (changes.spayedNeutered !== undefined) set("spayed_neutered", changes.spayedNeutered, "boolean");
  if (changes.houseTrained !== undefined) set("house_trained", changes.houseTrained, "boolean");
  if (changes.declawed !== undefined) set("declawed", changes.declawed, "boolean");
  if (changes.shotsCurrent !== undefined) set("shots_current", changes.shotsCurrent, "boolean");
  if (changes.specialNeeds !== undefined) set("special_needs", changes.specialNeeds, "boolean");
  if (changes.specialNeedsNotes !== undefined) set("special_needs_notes", changes.specialNeedsNotes, "text");
  if (changes.adoptionFee !== undefined) {
    set("adoption_fee_cents", changes.adoptionFee?.amountCents ?? null, "int");
    set("adoption_fee_currency", changes.adoptionFee?.currency ?? null, "text");
    set("adoption_fee_waived", changes.adoptionFee?.waived ?? null, "boolean");
  }
  if (changes.intakeDate !== undefined) set("intake_date", changes.intakeDate, "date");
  if (changes.videoUrl !== undefined) set("video_url", changes.videoUrl, "text");
  if (changes.tags !== undefined) set("tags", changes.tags, "text[]");
  if (changes.listOnOtherSites !== undefined) set("list_on_other_sites", changes.listOnOtherSites, "boolean");
  return sets;
}

/** The columns updateWithRecordSql can change (status, category and photos take changePet's locked way). */
export type PlainColumnChanges = Omit<PetColumnChanges, "status" | "categoryId">;

export interface PetUpdate {
  id: number;
  /** Tenancy: only an animal of this organisation (undefined: of any, for a platform caller). */
  organizationId: number | undefined;
  /** The version the change was worked out from: the row is changed only if it is still at it. */
  version: number;
  columns: PlainColumnChanges;
  /** The changed fields' old values (the audit record's `before`). */
  before: Record<string, unknown>;
  actor: AuditActor;
  requestId: string;
}

/**
 * A change of an animal with its audit record, in one statement: the UPDATE
 * (tenancy and version in its WHERE, so the row is locked only for this
 * statement and its commit, not across round trips) feeds the "updated"
 * record, whose commit writes the pet.updated event (the deferred trigger
 * on pet_audit, as for creates). No row back: the animal is not there (or not
 * the caller's), or it has moved past `version` since it was read.
 * `after` is the same jsonb a create's record has (storedPetJson), the photos
 * as the row holds them.
 */
export function updateWithRecordSql(u: PetUpdate): Prisma.Sql {
  const org = u.organizationId === undefined ? null : BigInt(u.organizationId);
  const actorName = u.actor.name ?? "";
  return Prisma.sql`
    WITH pet AS (
      UPDATE pets SET ${Prisma.join([...columnSets(u.columns), Prisma.sql`version = version + 1`], ", ")}
       WHERE id = ${BigInt(u.id)} AND (${org}::bigint IS NULL OR organization_id = ${org}::bigint) AND version = ${u.version}::int
      RETURNING *
    ), ph AS (
      SELECT jsonb_agg(jsonb_build_object('id', f.id, 'alt', f.alt, 'width', f.width, 'height', f.height,
                                          'placeholder', f.placeholder, 'files', f.files) ORDER BY f.position) AS photos
        FROM pet_photos f WHERE f.pet_id = ${BigInt(u.id)}
    ), audit AS (
      INSERT INTO pet_audit (pet_id, action, version, actor_kind, actor_id, actor_name, request_id, before, after)
      SELECT p.id, 'updated', p.version, ${u.actor.kind}::"ActorKind", ${BigInt(u.actor.id)}::bigint,
             COALESCE(NULLIF(${actorName}::text, ''), (SELECT name FROM api_keys WHERE id = ${BigInt(u.actor.id)}::bigint)),
             ${u.requestId}::text, ${JSON.stringify(u.before)}::jsonb, ${storedPetJson(Prisma.sql`p`, Prisma.sql`COALESCE(ph.photos, '[]'::jsonb)`)}
        FROM pet p CROSS JOIN ph
    )
    SELECT ${PET_COLUMNS} FROM pet p CROSS JOIN ph`;
}

/** Runs updateWithRecordSql on the pool (its own transaction: one statement, one commit). */
export async function updatePetWithRecord(u: PetUpdate): Promise<PetRow | null> {
  const rows = await query<RawPetRow>(updateWithRecordSql(u));
  return rows[0] ? fromRaw(rows[0]) : null;
}

/** The name of the unique index that holds an organisation's externalIds apart (migration 20261128000000). */
const EXTERNAL_ID_INDEX = "pets_external_id_organization_id_key";

/**
 * Whether a write failed on that index: in whichever form the error arrives
 * (pg's own for the pool's statements, Prisma's for its client's), it names
 * the index or its columns.
 */
export function isExternalIdTaken(error: unknown): boolean {
  for (const part of errorChain(error)) {
    const unique = part.code === "23505" || part.code === "P2002" || part.kind === "UniqueConstraintViolation";
    if (
      unique &&
      [part.constraint, part.message, part.meta, part.cause].some((p) => describe(p).includes(EXTERNAL_ID_INDEX) || describe(p).includes("external_id"))
    )
      return true;
  }
  return false;
}

/** A part of an error as text, whatever it is (JSON.stringify throws on bigints and cycles). */
function describe(part: unknown): string {
  if (typeof part === "string") return part;
  try {
    return JSON.stringify(part, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)) ?? "";
  } catch {
    return "";
  }
}

/** Puts an animal's photos in this order (position 0 is the cover). */
export async function setPhotoPositions(tx: Prisma.TransactionClient, petId: number, photoIds: number[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE pet_photos f SET position = o.n - 1
      FROM unnest(${photoIds.map(BigInt)}::bigint[]) WITH ORDINALITY AS o(id, n)
     WHERE f.id = o.id AND f.pet_id = ${BigInt(petId)}`;
}

/**
 * Adds many animals with their records in one statement (insertPetsWithRecords,
 * the statement every create goes through): an import's new animals, a
 * chunk at a time. Each input's row, or null when its category does not exist.
 */
export async function createPetsWithRecords(items: PetToCreate[], tx?: Prisma.TransactionClient): Promise<(PetRow | null)[]> {
  return insertPets(items, tx);
}
