import { Batcher } from "@/lib/batch";
import { db, query } from "@/lib/db";
import { readQuery, readsFromReplica, sharedReadQuery } from "@/lib/replicas";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { errorChain, isDatabaseUnavailable } from "@/lib/http/errors";
import { AGE_BOUNDARIES, birthRangeOf, yearsBefore, type AgeGroup, type IsoDate } from "@/lib/pets/age";
import type { IntakeType } from "@/lib/stays/schemas";
import { LIMIT_MAX, type CoatLength, type GoodWithKind, type ListingField, type NewPet, type PetSex, type PetSize, type PetStatus } from "@/lib/pets/schemas";

// Data access only: no HTTP, no rules. Ids are bigint here and numbers above.

/** The most creates sent as one statement. */
const CREATE_BATCH_MAX = 100;

/** A failure of one item of a batch whose other items went through. */
class Failed {
  constructor(readonly error: unknown) {}
}

/** A transaction's client, or the pool's: reads and writes of one change share the first. */
export type Db = Prisma.TransactionClient | PrismaClient;

/** A photo as stored: its files by width, without URLs (those depend on where the answer goes: lib/pets/present.ts). */
export interface StoredPhoto {
  id: number;
  alt: string | null;
  width: number;
  height: number;
  placeholder: string;
  files: Record<string, string>;
}

export type PetRow = {
  id: bigint;
  name: string;
  categoryId: bigint;
  organizationId: bigint;
  status: PetStatus;
  version: number;
  sex: PetSex;
  size: PetSize | null;
  /** YYYY-MM-DD. */
  birthDate: string | null;
  breed: string | null;
  description: string | null;
  goodWithChildren: boolean | null;
  goodWithDogs: boolean | null;
  goodWithCats: boolean | null;
  /** False once the last stay ended other than by adoption (lib/stays): shown to its organisation's staff only. */
  inCare: boolean;
} & ListingColumns & {
  photos: StoredPhoto[];
};

/** The listing-site profile as the row holds it (the fee as its three columns). */
export interface ListingColumns {
  externalId: string | null;
  secondaryBreed: string | null;
  mixedBreed: boolean | null;
  colors: string[];
  coatLength: CoatLength | null;
  spayedNeutered: boolean | null;
  houseTrained: boolean | null;
  declawed: boolean | null;
  shotsCurrent: boolean | null;
  specialNeeds: boolean | null;
  specialNeedsNotes: string | null;
  adoptionFeeCents: number | null;
  adoptionFeeCurrency: string | null;
  adoptionFeeWaived: boolean | null;
  /** YYYY-MM-DD. */
  intakeDate: string | null;
  videoUrl: string | null;
  tags: string[];
  listOnOtherSites: boolean;
}

export interface PetFilter {
  status?: PetStatus;
  categoryId?: number;
  /** At any of these organisations (`?organizationId=1,2`). */
  organizationIds?: number[];
  /** Only these ids (getPet's successor: `?id=12,15`). */
  ids?: number[];
  /** A piece of the name, as the client typed it (trimmed); matched case- and accent-insensitively. */
  search?: string;
  sex?: PetSex;
  /** Any of these sizes. */
  sizes?: PetSize[];
  /** Any of these age groups, on `today`. */
  ages?: { groups: AgeGroup[]; today: IsoDate; refreshedOn: IsoDate };
  /** Known to get on with all of these. */
  goodWith?: GoodWithKind[];
  /** The shelters' own ids (`?externalId=A123,A124`): a handful of animals. */
  externalIds?: string[];
  houseTrained?: boolean;
  specialNeeds?: boolean;
  spayedNeutered?: boolean;
  /** Any of these coat lengths. */
  coatLengths?: CoatLength[];
  /**
   * Whose animals out of care (lib/stays) a look-up by id may also return:
   * its organisation's staff (an organisation's id) or a platform admin
   * ("all"). Every other read, and every list, holds animals in care only.
   */
  outOfCareOf?: number | "all";
}

export interface PetPageQuery extends PetFilter {
  /** Walk older than this id (next page) or newer than it (previous page). */
  after?: number;
  before?: number;
  take: number;
}

/** The statuses as SQL literals, from a fixed list (never from the request's text). */
const STATUS_LITERAL: Record<PetStatus, Prisma.Sql> = {
  available: Prisma.sql`status = 'available'`,
  pending: Prisma.sql`status = 'pending'`,
  sold: Prisma.sql`status = 'sold'`,
};

/**
 * A page filter as SQL (every list statement is SQL: lib/pets/queries.ts
 * findPetPage). The name test runs on the
 * generated `search_name` column (lower-cased, unaccented) under its trigram
 * index. The query text goes through the same pet_search_key function first,
 * and only then are LIKE's wildcards escaped: unaccent turns some characters
 * into them (a full-width ％ becomes %).
 */
function sqlWhere(f: PetFilter & { idGreaterThan?: number; idLessThan?: number }, branch: Prisma.Sql[] = []): Prisma.Sql {
  const conditions = [...plainConditions(f), ...branch];
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** The filters that are one condition each (the "any of" ones are branches: filterBranches). */
function plainConditions(f: PetFilter & { idGreaterThan?: number; idLessThan?: number }): Prisma.Sql[] {
  // Animals out of care are on no list (docs/decisions/023); the page
  // indexes hold only those in care (migration 20261203100100), so this is
  // part of every index walk, not a filter after it.
  const conditions: Prisma.Sql[] = [inCareCondition(f)];
  if (f.search !== undefined) {
    conditions.push(Prisma.sql`search_name LIKE '%' || replace(replace(replace(pet_search_key(${f.search}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' ESCAPE '\\'`);
  }
  // A literal, not a parameter: each status's statement then has its own
  // (prepared) plan, which can use that status's partial index; a generic
  // plan for "status = $1" could not.
  if (f.status) conditions.push(STATUS_LITERAL[f.status]);
  if (f.categoryId) conditions.push(Prisma.sql`category_id = ${BigInt(f.categoryId)}`);
  if (f.ids) conditions.push(Prisma.sql`id = ANY(${f.ids.map(BigInt)}::bigint[])`);
  if (f.sex) conditions.push(SEX_LITERAL[f.sex]);
  for (const answer of ANSWER_FILTERS) {
    const wanted = f[answer];
    if (wanted !== undefined) conditions.push(ANSWER_LITERAL[answer][String(wanted) as "true" | "false"]);
  }
  if (f.idLessThan !== undefined) conditions.push(Prisma.sql`id < ${BigInt(f.idLessThan)}`);
  if (f.idGreaterThan !== undefined) conditions.push(Prisma.sql`id > ${BigInt(f.idGreaterThan)}`);
  return conditions;
}

function inCareCondition(f: PetFilter): Prisma.Sql {
  if (f.ids && f.outOfCareOf === "all") return Prisma.sql`TRUE`;
  if (f.ids && f.outOfCareOf !== undefined) return Prisma.sql`(in_care OR organization_id = ${BigInt(f.outOfCareOf)})`;
  return Prisma.sql`in_care`;
}

const SEX_LITERAL: Record<PetSex, Prisma.Sql> = {
  female: Prisma.sql`sex = 'female'`,
  male: Prisma.sql`sex = 'male'`,
  unknown: Prisma.sql`sex = 'unknown'`,
};
/**
 * The yes/no filters, spelled exactly as the predicates of their partial
 * indexes on id (one per answer, migration 20261128000000), so the planner
 * walks the one that holds only the matching animals.
 */
const ANSWER_FILTERS = ["houseTrained", "specialNeeds", "spayedNeutered"] as const;
const ANSWER_LITERAL: Record<(typeof ANSWER_FILTERS)[number], Record<"true" | "false", Prisma.Sql>> = {
  houseTrained: { true: Prisma.sql`house_trained`, false: Prisma.sql`NOT house_trained` },
  specialNeeds: { true: Prisma.sql`special_needs`, false: Prisma.sql`NOT special_needs` },
  spayedNeutered: { true: Prisma.sql`spayed_neutered`, false: Prisma.sql`NOT spayed_neutered` },
};
const COAT_LITERAL: Record<CoatLength, Prisma.Sql> = {
  hairless: Prisma.sql`coat_length = 'hairless'`,
  short: Prisma.sql`coat_length = 'short'`,
  medium: Prisma.sql`coat_length = 'medium'`,
  long: Prisma.sql`coat_length = 'long'`,
  wire: Prisma.sql`coat_length = 'wire'`,
  curly: Prisma.sql`coat_length = 'curly'`,
};
const SIZE_LITERAL: Record<PetSize, Prisma.Sql> = {
  small: Prisma.sql`size = 'small'`,
  medium: Prisma.sql`size = 'medium'`,
  large: Prisma.sql`size = 'large'`,
  xlarge: Prisma.sql`size = 'xlarge'`,
};
const AGE_LITERAL: Record<AgeGroup, Prisma.Sql> = {
  baby: Prisma.sql`'baby'::"PetAgeGroup"`,
  young: Prisma.sql`'young'::"PetAgeGroup"`,
  adult: Prisma.sql`'adult'::"PetAgeGroup"`,
  senior: Prisma.sql`'senior'::"PetAgeGroup"`,
};
const GOOD_WITH_BIT: Record<GoodWithKind, number> = { children: 1, dogs: 2, cats: 4 };
/** The group boundaries (in years) each group touches: where an animal's stored group may lag behind its birthday. */
const GROUP_BOUNDARIES: Record<AgeGroup, number[]> = {
  baby: [AGE_BOUNDARIES.baby],
  young: [AGE_BOUNDARIES.baby, AGE_BOUNDARIES.young],
  adult: [AGE_BOUNDARIES.young, AGE_BOUNDARIES.adult],
  senior: [AGE_BOUNDARIES.adult],
};

/** Date ranges (inclusive), sorted and with overlapping ones merged: branches over them never return a row twice. */
function disjointRanges(ranges: [IsoDate, IsoDate][]): [IsoDate, IsoDate][] {
  const out: [IsoDate, IsoDate][] = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0].localeCompare(b[0]))) {
    const last = out.at(-1);
    if (last && from <= last[1]) last[1] = to > last[1] ? to : last[1];
    else out.push([from, to]);
  }
  return out;
}

const dayBefore = (day: IsoDate) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dayAfter = (day: IsoDate) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Marks a branch whose rows are few wherever the page is (the birthdays of a
 * few days): fetched by their own index and sorted, never found by walking
 * the primary key in id order. Walking it, a deep page of a branch with no
 * match reads every row below the cursor (100 ms at a million animals, and
 * a prepared statement's generic plan chose that walk).
 */
const SMALL_SET = Prisma.sql`TRUE`;

/** The most index-walking branches a page statement is split into; past this, one branch with ANY() (right, if slower). */
const BRANCHES_MAX = 32;

/**
 * The "any of" filters (sizes, age groups, goodWith) as disjoint branches,
 * each a set of conditions an index walks in id order: a page is then the
 * newest rows of each branch, merged. PostgreSQL 15 cannot walk one
 * (size, id) index in id order across two sizes, so `size IN (small,
 * medium)` would read and sort every small and medium animal; two walks of
 * 21 rows each cost the same at any depth. One branch (no condition) when
 * no such filter is given.
 */
export function filterBranches(f: PetFilter): Prisma.Sql[][] {
  let branches: Prisma.Sql[][] = [[]];
  const times = (options: Prisma.Sql[][]) => {
    branches = branches.flatMap((b) => options.map((o) => [...b, ...o]));
  };
  // One walk of the (organization_id, [status,] id) index per organisation.
  if (f.organizationIds?.length) times(f.organizationIds.map((id) => [Prisma.sql`organization_id = ${BigInt(id)}`]));
  // A shelter's own ids name a handful of animals, found by their index wherever they are (SMALL_SET).
  if (f.externalIds?.length) times([[SMALL_SET, externalIdCondition(f.externalIds)]]);
  if (f.sizes?.length) times(f.sizes.map((size) => [SIZE_LITERAL[size]]));
  if (f.coatLengths?.length) times(f.coatLengths.map((coat) => [COAT_LITERAL[coat]]));
  if (f.goodWith?.length) {
    // Every combination of yes-answers that includes all those asked for.
    const wanted = f.goodWith.reduce((m, k) => m | GOOD_WITH_BIT[k], 0);
    const masks = [1, 2, 3, 4, 5, 6, 7].filter((m) => (m & wanted) === wanted);
    times(masks.map((m) => [Prisma.sql`good_with_mask = ${m}::smallint`]));
  }
  if (f.ages?.groups.length) {
    const { today, refreshedOn } = f.ages;
    times(
      f.ages.groups.flatMap((group) => {
        const range = birthRangeOf(group, today);
        const exact = [
          ...(range.after !== undefined ? [Prisma.sql`birth_date > ${range.after}::date`] : []),
          ...(range.through !== undefined ? [Prisma.sql`birth_date <= ${range.through}::date`] : []),
        ];
        // The stored group, re-checked against the exact birth dates of today...
        const stored = [Prisma.sql`age_group = ${AGE_LITERAL[group]}`, ...exact];
        // ...and the few animals whose birthday crossed one of this group's
        // boundaries since the stored groups were last refreshed (a day's
        // margin either side for clocks that disagree): found by birth date.
        // (Between the two days in whichever order: a clock set back makes stored groups run ahead.)
        const [earlier, later] = refreshedOn < today ? [refreshedOn, today] : [today, refreshedOn];
        const windows = disjointRanges(GROUP_BOUNDARIES[group].map((years) => [dayBefore(yearsBefore(earlier, years)), dayAfter(yearsBefore(later, years))]));
        // One branch per window: a plain range of the covering birth-date
        // index is read without visiting the table (an OR of two ranges is a
        // bitmap scan, which reads every row of both windows from the heap).
        const crossed = windows.map(([from, to]) => [
          SMALL_SET,
          Prisma.sql`age_group IS DISTINCT FROM ${AGE_LITERAL[group]}`,
          ...exact,
          Prisma.sql`birth_date BETWEEN ${from}::date AND ${to}::date`,
        ]);
        return [stored, ...crossed];
      }),
    );
  }
  if (branches.length > BRANCHES_MAX) return [[...(f.externalIds?.length ? [SMALL_SET] : []), ...anyOfConditions(f)]];
  return branches;
}

// IS NOT NULL spelled out: the unique index holds only animals with an id, and a
// generic plan cannot prove that "= ANY($n)" implies it.
const externalIdCondition = (ids: string[]) => Prisma.sql`external_id IS NOT NULL AND external_id = ANY(${ids}::text[])`;

/** The same filters as one set of conditions (for the rare request that would need too many branches). */
function anyOfConditions(f: PetFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (f.organizationIds?.length) out.push(Prisma.sql`organization_id = ANY(${f.organizationIds.map(BigInt)}::bigint[])`);
  if (f.externalIds?.length) out.push(externalIdCondition(f.externalIds));
  if (f.sizes?.length) out.push(Prisma.sql`size = ANY(${f.sizes}::"PetSize"[])`);
  if (f.coatLengths?.length) out.push(Prisma.sql`coat_length = ANY(${f.coatLengths}::"PetCoatLength"[])`);
  if (f.goodWith?.length) {
    const wanted = f.goodWith.reduce((m, k) => m | GOOD_WITH_BIT[k], 0);
    out.push(Prisma.sql`(good_with_mask & ${wanted}::smallint) = ${wanted}::smallint`);
  }
  if (f.ages?.groups.length) {
    const today = f.ages.today;
    out.push(
      Prisma.sql`(${Prisma.join(
        f.ages.groups.map((g) => {
          const r = birthRangeOf(g, today);
          return Prisma.sql`(birth_date > ${r.after ?? "0001-01-01"}::date AND birth_date <= ${r.through ?? "9999-12-31"}::date)`;
        }),
        " OR ",
      )})`,
    );
  }
  return out;
}

/**
 * Up to `take` rows walking away from the cursor (newest first for a next
 * page, oldest first for a previous one), and, for a page after a cursor,
 * whether any row lies on the cursor's other side: one statement, one round
 * trip. Served by the (status|category, id) indexes, so a page costs the
 * same at any depth; a name search by the trigram index on search_name.
 */
export async function findPetPage(q: PetPageQuery): Promise<{ rows: PetRow[]; otherSide?: boolean }> {
  // The hottest statement of the API: run prepared on the pool directly, and
  // shared by identical requests made at the same moment (everyone's first page).
  const rows = await sharedReadQuery<RawPetRow & { other: boolean | null }>(pageSql(q));
  const otherSide = q.after !== undefined || q.before !== undefined ? Boolean(rows[0]?.other) : undefined;
  return { rows: rows.filter((r) => r.id !== null).map(fromRaw), otherSide };
}

/** A pets row as pg returns it: int8 columns as strings. */
type RawPetRow = Omit<PetRow, "id" | "categoryId" | "organizationId"> & { id: string; categoryId: string; organizationId: string };

const fromRaw = (r: RawPetRow): PetRow => ({ ...r, id: BigInt(r.id), categoryId: BigInt(r.categoryId), organizationId: BigInt(r.organizationId) });

/**
 * An animal's columns as every read returns them (`p` is the pets row), its
 * photos in order from the LATERAL join PHOTOS_JOIN adds.
 */
const PET_COLUMNS = Prisma.sql`p.id, p.name, p.category_id AS "categoryId", p.organization_id AS "organizationId", p.status, p.version, p.sex, p.size,
  p.birth_date::text AS "birthDate", p.breed, p.description, p.good_with_children AS "goodWithChildren",
  p.good_with_dogs AS "goodWithDogs", p.good_with_cats AS "goodWithCats",
  p.external_id AS "externalId", p.secondary_breed AS "secondaryBreed", p.mixed_breed AS "mixedBreed", p.colors, p.coat_length AS "coatLength",
  p.spayed_neutered AS "spayedNeutered", p.house_trained AS "houseTrained", p.declawed, p.shots_current AS "shotsCurrent",
  p.special_needs AS "specialNeeds", p.special_needs_notes AS "specialNeedsNotes", p.adoption_fee_cents AS "adoptionFeeCents",
  p.adoption_fee_currency AS "adoptionFeeCurrency", p.adoption_fee_waived AS "adoptionFeeWaived", p.intake_date::text AS "intakeDate",
  p.video_url AS "videoUrl", p.tags, p.list_on_other_sites AS "listOnOtherSites", p.in_care AS "inCare", COALESCE(ph.photos, '[]'::jsonb) AS photos`;
const PHOTOS_JOIN = Prisma.sql`LEFT JOIN LATERAL (
  SELECT jsonb_agg(jsonb_build_object('id', f.id, 'alt', f.alt, 'width', f.width, 'height', f.height,
                                      'placeholder', f.placeholder, 'files', f.files) ORDER BY f.position) AS photos
    FROM pet_photos f WHERE f.pet_id = p.id) ph ON true`;

/** The ids of a page: each branch walked in id order from the cursor, then merged. */
function pageIds(q: PetPageQuery, bounds: { idLessThan?: number; idGreaterThan?: number }, order: Prisma.Sql, take: number): Prisma.Sql {
  const branches = filterBranches(q).map((branch) =>
    // "id + 0" is the same order that no index provides: the small set is read and sorted (see SMALL_SET).
    branch.includes(SMALL_SET)
      ? Prisma.sql`SELECT id FROM pets ${sqlWhere({ ...q, ...bounds }, branch)} ORDER BY id + 0 ${order} LIMIT ${take}`
      : Prisma.sql`SELECT id FROM pets ${sqlWhere({ ...q, ...bounds }, branch)} ORDER BY id ${order} LIMIT ${take}`,
  );
  if (branches.length === 1) return branches[0]!;
  return Prisma.sql`SELECT id FROM (${Prisma.join(branches.map((b) => Prisma.sql`(${b})`), " UNION ALL ")}) u ORDER BY id ${order} LIMIT ${take}`;
}

/**
 * The page statement (exported so tests can read its plan through EXPLAIN).
 * The page's ids come from the indexes alone (index-only scans), and only
 * those rows are read from the table, with their photos: the filters' walk
 * never touches the wide rows (a description can be 5,000 characters).
 */
export function pageSql(q: PetPageQuery): Prisma.Sql {
  const ascending = q.before !== undefined;
  const order = ascending ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  // The ids are planned on their own (a MATERIALIZED CTE): as a subquery,
  // a generic plan, which takes LIMIT $n to keep a tenth of its input,
  // could prefer a parallel scan of the whole table merely because its
  // estimate of rows (per worker) made the lookups below look cheaper
  // (house_trained: 30,000 rows scanned for a first page of 21).
  // Each row is then looked up by its id (a LATERAL with LIMIT, which the planner
  // cannot turn into a hash join over the whole table when a prepared
  // statement's generic plan does not know how many ids there will be).
  const page = Prisma.sql`
    WITH ids AS MATERIALIZED (${pageIds(q, { idLessThan: q.after, idGreaterThan: q.before }, order, q.take)})
    SELECT ${PET_COLUMNS}
      FROM ids
      CROSS JOIN LATERAL (SELECT * FROM pets WHERE pets.id = ids.id LIMIT 1) p
      ${PHOTOS_JOIN}
     ORDER BY p.id ${order}`;
  if (q.after === undefined && q.before === undefined) return Prisma.sql`SELECT *, NULL::boolean AS other FROM (${page}) p`;
  // The other side of the cursor: ids at or above it for a next page, at or
  // below it for a previous one. Asked as "the nearest row that way", in id
  // order, as a scalar subquery: an EXISTS drops the ORDER BY and LIMIT and
  // lets the planner pick a sequential scan, which walks half the table
  // when the match is at the far end.
  const otherSide = q.after !== undefined ? { idGreaterThan: q.after - 1 } : { idLessThan: q.before! + 1 };
  return Prisma.sql`
    SELECT p.*, o.other
    FROM (SELECT (${pageIds(q, otherSide, q.after !== undefined ? Prisma.sql`ASC` : Prisma.sql`DESC`, 1)}) IS NOT NULL AS other) o
    LEFT JOIN LATERAL (${page}) p ON true`;
}

// Search near a place. Distance belongs to organisations (an animal is
// where its shelter is), so a near page walks organisations nearest first
// through the GiST index on their points, and takes each one's matching
// animals newest first from its (organization_id, [status,] id) index: the
// order is (distance, id descending), and a cursor carries both. The
// database's distance is the chord `k` (lib/organizations/geo.ts).
//
// Organisations are walked in chunks: the nearest `chunk` beyond where the
// walk stands, by a plain nearest-first index scan with a LIMIT, which the
// planner always takes (bounded by a search area, it estimates cube
// containment so low that it prefers reading and sorting every organisation
// in the area: 2,000 within 800 km, 4 ms). A chunk only answers for the
// organisations strictly nearer than its farthest one (organisations tied
// at that distance may continue in the next chunk), and a page that did not
// fill goes on with a chunk twice as large from there. One round trip in
// the common case; a sparse filter costs a few more.

export interface NearWalk {
  /** The search point's coordinates. */
  lat: number;
  lng: number;
  /** The search radius as a chord (metres). */
  maxChord: number;
}

export interface NearPageQuery extends PetFilter, NearWalk {
  /** Continue after (next page) or before (previous page) this position: the chord `k` and the animal's id. */
  after?: { k: number; id: number };
  before?: { k: number; id: number };
  take: number;
}

export type NearPetRow = PetRow & { chord: number };

const NEAR_CHUNK_FIRST = 32;
const NEAR_CHUNK_MAX = 16_384;

function searchPoint(w: NearWalk): Prisma.Sql {
  return Prisma.sql`geo_point(${w.lat}::float8, ${w.lng}::float8)`;
}

/** The filters as conditions on one organisation's animals (a handful of rows each: one set of conditions, no branches). */
function nearPetConditions(f: PetFilter): Prisma.Sql[] {
  return [...plainConditions(f), ...anyOfConditions({ ...f, organizationIds: undefined })];
}

/** Organisations that may hold a match: with a place, and among those asked for. */
function nearOrganizationConditions(f: PetFilter): Prisma.Sql[] {
  return [
    Prisma.sql`o.earth_point IS NOT NULL`,
    ...(f.organizationIds?.length ? [Prisma.sql`o.id = ANY(${f.organizationIds.map(BigInt)}::bigint[])`] : []),
  ];
}

/** One chunk of a forward walk: the page's rows found among the organisations it answers for, and where the next chunk starts. */
export function nearChunkSql(q: NearPageQuery & { from: number; chunk: number }): Prisma.Sql {
  const point = searchPoint(q);
  const petConditions = nearPetConditions(q);
  const cursor = q.after ? Prisma.sql`AND (c.chord > ${q.after.k}::float8 OR id < ${BigInt(q.after.id)})` : Prisma.empty;
  return Prisma.sql`
    WITH chunk AS MATERIALIZED (
      SELECT o.id, o.earth_point <-> ${point} AS chord FROM organizations o
       WHERE ${Prisma.join(nearOrganizationConditions(q), " AND ")} AND o.earth_point <-> ${point} >= ${q.from}::float8
       ORDER BY o.earth_point <-> ${point} LIMIT ${q.chunk}
    ), edge AS (
      SELECT count(*)::int AS size, max(chord) AS far FROM chunk
    ), ids AS (
      SELECT c.chord, a.id
        FROM (SELECT * FROM chunk
               WHERE chord <= ${q.maxChord}::float8 AND (chord < (SELECT far FROM edge) OR (SELECT size FROM edge) < ${q.chunk})
               ORDER BY chord) c
        CROSS JOIN LATERAL (
          SELECT id FROM pets WHERE organization_id = c.id ${petConditions.length ? Prisma.sql`AND ${Prisma.join(petConditions, " AND ")}` : Prisma.empty} ${cursor}
           ORDER BY id DESC LIMIT ${q.take}) a
       ORDER BY c.chord, a.id DESC LIMIT ${q.take}
    )
    SELECT e.size AS "chunkSize", e.far AS "chunkFar", x.*
      FROM edge e
      LEFT JOIN LATERAL (
        SELECT ids.chord, ${PET_COLUMNS}
          FROM ids CROSS JOIN LATERAL (SELECT * FROM pets WHERE pets.id = ids.id LIMIT 1) p
          ${PHOTOS_JOIN}
         ORDER BY ids.chord, p.id DESC
      ) x ON true`;
}

type NearChunkRow = (RawPetRow & { chord: number }) | { id: null };

/**
 * Up to `take` animals near a place, nearest first (newest first at one
 * distance), after the cursor: chunk after chunk until the page is full or
 * every organisation within the radius has been seen.
 */
export async function findNearPets(q: NearPageQuery): Promise<NearPetRow[]> {
  const rows: NearPetRow[] = [];
  let from = q.after?.k ?? 0;
  for (let chunk = NEAR_CHUNK_FIRST; ; chunk = Math.min(chunk * 2, NEAR_CHUNK_MAX)) {
    const found = await sharedReadQuery<NearChunkRow & { chunkSize: number; chunkFar: number | null }>(nearChunkSql({ ...q, from, chunk, take: q.take - rows.length }));
    for (const r of found) if (r.id !== null) rows.push({ ...fromRaw(r as RawPetRow), chord: (r as { chord: number }).chord });
    const { chunkSize, chunkFar } = found[0] ?? { chunkSize: 0, chunkFar: null };
    // Done: the page is full, no organisation is left, or the chunk reached past the radius.
    if (rows.length >= q.take || chunkSize < chunk || chunkFar === null || chunkFar > q.maxChord) return rows;
    from = chunkFar;
  }
}

/**
 * A previous page: the animals just before the cursor, walking back towards
 * the place (farthest first), as many as `take`. The organisations nearer
 * than the cursor are few (as many as the pages before it), so they are
 * read and sorted, not walked by the index.
 */
export function nearBeforeSql(q: NearPageQuery & { before: { k: number; id: number } }): Prisma.Sql {
  const point = searchPoint(q);
  const petConditions = nearPetConditions(q);
  return Prisma.sql`
    WITH ids AS (
      SELECT c.chord, a.id
        FROM (SELECT o.id, o.earth_point <-> ${point} AS chord FROM organizations o
               WHERE ${Prisma.join(nearOrganizationConditions(q), " AND ")}
                 AND cube_enlarge(${point}, ${q.before.k}::float8, 3) @> o.earth_point AND o.earth_point <-> ${point} <= ${q.before.k}::float8
               ORDER BY 2 DESC) c
        CROSS JOIN LATERAL (
          SELECT id FROM pets WHERE organization_id = c.id ${petConditions.length ? Prisma.sql`AND ${Prisma.join(petConditions, " AND ")}` : Prisma.empty}
             AND (c.chord < ${q.before.k}::float8 OR id > ${BigInt(q.before.id)})
           ORDER BY id ASC LIMIT ${q.take}) a
       ORDER BY c.chord DESC, a.id ASC LIMIT ${q.take}
    )
    SELECT ids.chord, ${PET_COLUMNS}
      FROM ids CROSS JOIN LATERAL (SELECT * FROM pets WHERE pets.id = ids.id LIMIT 1) p
      ${PHOTOS_JOIN}
     ORDER BY ids.chord DESC, p.id ASC`;
}

export async function findNearPetsBefore(q: NearPageQuery & { before: { k: number; id: number } }): Promise<NearPetRow[]> {
  const rows = await sharedReadQuery<RawPetRow & { chord: number }>(nearBeforeSql(q));
  return rows.map((r) => ({ ...fromRaw(r), chord: r.chord }));
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
             i.open_stay, i.stay_type, i.stay_subtype,
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
                    ${pets.map((p) => p.firstStay?.type ?? "otherIntake")}::text[], ${pets.map((p) => p.firstStay?.subtype ?? null)}::text[])
             WITH ORDINALITY AS i(name, category_id, organization_id, status, sex, size, birth_date, breed, description,
                                  good_with_children, good_with_dogs, good_with_cats,
                                  external_id, secondary_breed, mixed_breed, colors, coat_length, spayed_neutered, house_trained,
                                  declawed, shots_current, special_needs, special_needs_notes, adoption_fee_cents,
                                  adoption_fee_currency, adoption_fee_waived, intake_date, video_url, tags, list_on_other_sites,
                                  actor_kind, actor_id, actor_name, request_id, open_stay, stay_at, stay_type, stay_subtype, ord)
        JOIN categories c ON c.id = i.category_id
        JOIN organizations o ON o.id = i.organization_id
    ), pet AS (
      INSERT INTO pets (id, name, category_id, organization_id, status, sex, size, birth_date, breed, description, good_with_children, good_with_dogs, good_with_cats,
                        ${LISTING_COLUMN_LIST})
      SELECT id, name, category_id, organization_id, status, sex, size, birth_date, breed, description, good_with_children, good_with_dogs, good_with_cats,
             ${LISTING_COLUMN_LIST}
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
    return Promise.all(items.map((item) => insertPets([item]).then(([row]) => row!, (failure: unknown) => new Failed(failure))));
  }
}, CREATE_BATCH_MAX);

/** Adds one animal with its records: batched with concurrent creates, or inside the caller's transaction. */
export async function createPetWithRecords(tx: Prisma.TransactionClient | undefined, pet: PetToCreate["pet"], actor: AuditActor, requestId: string): Promise<PetRow | null> {
  const item = { pet, actor, requestId };
  if (tx) return (await insertPets([item], tx))[0]!;
  const result = await creates.run("create", item);
  if (result instanceof Failed) throw result.error;
  return result;
}

/**
 * One animal by id. Concurrent lookups (getPet, every page of an animal) go
 * to PostgreSQL together, as one statement for all their ids.
 */
export async function findPetById(id: number): Promise<PetRow | null> {
  // Batches never mix a request that may read a replica with one that must read the primary.
  return petsById.run(readsFromReplica() ? "replica" : "primary", id);
}

/** Animals by id, as every read returns them (exported for the bench's floor, scripts/bench-floor.ts). */
export function petsByIdSql(ids: number[]): Prisma.Sql {
  return Prisma.sql`SELECT ${PET_COLUMNS} FROM pets p ${PHOTOS_JOIN} WHERE p.id = ANY(${[...new Set(ids)].map(BigInt)}::bigint[])`;
}

const petsById = new Batcher<number, PetRow | null>(async (ids) => {
  const rows = await readQuery<RawPetRow>(petsByIdSql(ids));
  const byId = new Map(rows.map((r) => [Number(r.id), fromRaw(r)]));
  return ids.map((id) => byId.get(id) ?? null);
}, LIMIT_MAX);

/**
 * The row as it is now, locked until the transaction ends, so that the
 * "before" of its audit record is exactly what the update replaced. Only an
 * animal of `organizationId` (undefined: of any, for a platform caller): the
 * tenancy check and the lock are one statement.
 */
export async function lockPetForUpdate(tx: Prisma.TransactionClient, id: number, organizationId: number | undefined): Promise<PetRow | null> {
  // Locked first (FOR UPDATE cannot sit beside the photos' aggregate), then read whole.
  const org = organizationId === undefined ? null : BigInt(organizationId);
  const locked = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM pets WHERE id = ${BigInt(id)} AND (${org}::bigint IS NULL OR organization_id = ${org}::bigint) FOR UPDATE`;
  if (!locked.length) return null;
  return readPet(tx, id);
}

/** One animal with its photos, inside a transaction (which sees its own changes). */
export async function readPet(tx: Prisma.TransactionClient, id: number): Promise<PetRow | null> {
  const rows = await tx.$queryRaw<RawPetRow[]>(Prisma.sql`SELECT ${PET_COLUMNS} FROM pets p ${PHOTOS_JOIN} WHERE p.id = ${BigInt(id)}`);
  return rows[0] ? fromRaw(rows[0]) : null;
}

/**
 * Applies the changes and bumps the version, only if the version is still one
 * of `versions` (If-Match): the condition is part of the UPDATE itself, so no
 * other writer can slip in between a check and the write. null when it no
 * longer matches (or the row is gone).
 */
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

/** The columns the Prisma update writes for the changes (only those given). */
function columnData(changes: PetColumnChanges): Prisma.PetUncheckedUpdateManyInput {
  const day = (d: string | null) => (d === null ? null : new Date(`${d}T00:00:00Z`));
  const copied = ["name", "status", "sex", "size", "breed", "description", "externalId", "secondaryBreed", "mixedBreed", "colors", "coatLength",
    "spayedNeutered", "houseTrained", "declawed", "shotsCurrent", "specialNeeds", "specialNeedsNotes", "videoUrl", "tags", "listOnOtherSites"] as const;
  const data: Prisma.PetUncheckedUpdateManyInput = Object.fromEntries(copied.filter((f) => changes[f] !== undefined).map((f) => [f, changes[f]]));
  if (changes.categoryId !== undefined) data.categoryId = BigInt(changes.categoryId);
  if (changes.birthDate !== undefined) data.birthDate = day(changes.birthDate);
  if (changes.intakeDate !== undefined) data.intakeDate = day(changes.intakeDate);
  if (changes.goodWith !== undefined) Object.assign(data, { goodWithChildren: changes.goodWith.children, goodWithDogs: changes.goodWith.dogs, goodWithCats: changes.goodWith.cats });
  if (changes.adoptionFee !== undefined) {
    const fee = changes.adoptionFee;
    Object.assign(data, { adoptionFeeCents: fee?.amountCents ?? null, adoptionFeeCurrency: fee?.currency ?? null, adoptionFeeWaived: fee?.waived ?? null });
  }
  return data;
}

export async function updatePetIfVersion(tx: Prisma.TransactionClient, id: number, versions: number[], changes: PetColumnChanges): Promise<PetRow | null> {
  const updated = await tx.pet.updateManyAndReturn({
    where: { id: BigInt(id), version: { in: versions } },
    data: {
      ...columnData(changes),
      version: { increment: 1 },
    },
    select: { id: true },
  });
  return updated.length ? readPet(tx, id) : null;
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

/** Each changeable column as SQL, with the type PostgreSQL needs for its parameter. */
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
    if (unique && [part.constraint, part.message, part.meta, part.cause].some((p) => describe(p).includes(EXTERNAL_ID_INDEX) || describe(p).includes("external_id"))) return true;
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

/** The animal of the organisation with this externalId, if any. */
export async function findPetIdByExternalId(organizationId: number, externalId: string): Promise<number | null> {
  const rows = await query<{ id: string }>(Prisma.sql`SELECT id FROM pets WHERE external_id = ${externalId} AND organization_id = ${BigInt(organizationId)}`);
  return rows[0] ? Number(rows[0].id) : null;
}

export async function findCategories(): Promise<{ id: bigint; name: string }[]> {
  const rows = await readQuery<{ id: string; name: string }>(Prisma.sql`SELECT id, name FROM categories ORDER BY id`);
  return rows.map((r) => ({ id: BigInt(r.id), name: r.name }));
}

export async function categoryExists(id: number, client: Db = db()): Promise<boolean> {
  return (await client.category.findUnique({ where: { id: BigInt(id) }, select: { id: true } })) !== null;
}

/** The id of the animal's approved adoption application, if it has one (at most one: a unique index). */
export async function approvedApplicationOf(tx: Prisma.TransactionClient, petId: number): Promise<bigint | null> {
  const [row] = await tx.$queryRaw<{ id: bigint }[]>`SELECT id FROM adoption_applications WHERE pet_id = ${BigInt(petId)} AND state = 'approved' LIMIT 1`;
  return row?.id ?? null;
}

/** Puts an animal's photos in this order (position 0 is the cover). */
export async function setPhotoPositions(tx: Prisma.TransactionClient, petId: number, photoIds: number[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE pet_photos f SET position = o.n - 1
      FROM unnest(${photoIds.map(BigInt)}::bigint[]) WITH ORDINALITY AS o(id, n)
     WHERE f.id = o.id AND f.pet_id = ${BigInt(petId)}`;
}

let refreshed: { on: IsoDate; readAt: number } | undefined;
const REFRESHED_TTL_MS = 60_000;

/**
 * The day stored age groups were last brought up to date (a daily job moves
 * it on). Kept a minute per process: a value older than the truth only
 * widens the age filter's re-checked window a little, never loses a row.
 */
export async function ageGroupsRefreshedOn(): Promise<IsoDate> {
  if (refreshed && performance.now() - refreshed.readAt < REFRESHED_TTL_MS) return refreshed.on;
  const rows = await query<{ on: string }>(Prisma.sql`SELECT refreshed_on::text AS "on" FROM age_group_refresh`);
  // No row (a database emptied by hand): nothing is known, so every birth date is re-checked.
  const on = rows[0]?.on ?? "1900-01-01";
  refreshed = { on, readAt: performance.now() };
  return on;
}

/** Moves every stored age group on to `day` (UTC); returns how many animals changed group. */
export async function refreshAgeGroups(day: IsoDate): Promise<number> {
  const rows = await db().$queryRaw<{ changed: number }[]>`SELECT refresh_pet_age_groups(${day}::date) AS changed`;
  refreshed = undefined;
  return Number(rows[0]?.changed ?? 0);
}

/**
 * Adds many animals with their records in one statement (insertPetsWithRecords,
 * the statement every create goes through): an import's new animals, a
 * chunk at a time. Each input's row, or null when its category does not exist.
 */
export async function createPetsWithRecords(items: PetToCreate[], tx?: Prisma.TransactionClient): Promise<(PetRow | null)[]> {
  return insertPets(items, tx);
}

/** An organisation's animals with these externalIds, from the primary (an import compares the file with them before writing). */
export async function findPetsByExternalIds(organizationId: number, externalIds: string[]): Promise<PetRow[]> {
  if (!externalIds.length) return [];
  const rows = await query<RawPetRow>(
    Prisma.sql`SELECT ${PET_COLUMNS} FROM pets p ${PHOTOS_JOIN} WHERE p.organization_id = ${BigInt(organizationId)} AND p.external_id = ANY(${externalIds}::text[])`,
  );
  return rows.map(fromRaw);
}

/** An organisation's available animals that have an externalId not among `present` (an import's `missing=adopted`). */
export async function findAvailableAbsent(organizationId: number, present: string[]): Promise<{ id: number; externalId: string }[]> {
  const rows = await query<{ id: string; external_id: string }>(
    Prisma.sql`SELECT id, external_id FROM pets
                WHERE organization_id = ${BigInt(organizationId)} AND status = 'available' AND in_care AND external_id IS NOT NULL
                  AND NOT (external_id = ANY(${present}::text[]))
                ORDER BY id`,
  );
  return rows.map((r) => ({ id: Number(r.id), externalId: r.external_id }));
}
