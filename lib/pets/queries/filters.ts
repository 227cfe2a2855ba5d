import { Prisma } from "@/lib/generated/prisma/client";
import { AGE_BOUNDARIES, birthRangeOf, yearsBefore, type AgeGroup, type IsoDate } from "@/lib/pets/age";
import { type CoatLength, type PetSex, type PetSize, type PetStatus } from "@/lib/pets/schemas/fields";
import { type GoodWithKind } from "@/lib/pets/profile";
import { animalsCondition, THE_PUBLIC, type Viewer } from "@/lib/visibility/policy";

// A list's filters as SQL: the conditions, and the branches a page walks (one per status or category).

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
   * Who reads: which animals the list may hold is theirs to know
   * (lib/visibility/policy.ts animalsCondition). Without one, the public's:
   * animals in care only.
   */
  viewer?: Viewer;
  /** Only the animals out of care whose records the viewer reads (`?inCare=false`: staff finding an animal that left, to take it in again). */
  onlyOutOfCare?: boolean;
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
 * A page filter as SQL (every list statement is SQL: lib/pets/queries/pages.ts
 * findPetPage). The name test runs on the
 * generated `search_name` column (lower-cased, unaccented) under its trigram
 * index. The query text goes through the same pet_search_key function first,
 * and only then are LIKE's wildcards escaped: unaccent turns some characters
 * into them (a full-width ％ becomes %).
 */
export function sqlWhere(f: PetFilter & { idGreaterThan?: number; idLessThan?: number }, branch: Prisma.Sql[] = []): Prisma.Sql {
  const conditions = [...plainConditions(f), ...branch];
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** The filters that are one condition each (the "any of" ones are branches: filterBranches). */
export function plainConditions(f: PetFilter & { idGreaterThan?: number; idLessThan?: number }): Prisma.Sql[] {
  // Animals out of care are on no public list (docs/decisions/023, 027); the
  // page indexes hold only those in care (migration 20261203100100), so this
  // is part of every index walk, not a filter after it.
  const conditions: Prisma.Sql[] = [inCareCondition(f)];
  if (f.search !== undefined) {
    conditions.push(
      Prisma.sql`search_name LIKE '%' || replace(replace(replace(pet_search_key(${f.search}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' ESCAPE '\\'`,
    );
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
  return animalsCondition(f.viewer ?? THE_PUBLIC, f.onlyOutOfCare ? "out-of-care" : f.ids ? "by-id" : "listed");
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
export const SMALL_SET = Prisma.sql`TRUE`;

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
export function anyOfConditions(f: PetFilter): Prisma.Sql[] {
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
