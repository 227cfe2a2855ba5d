import { AGE_GROUPS, type AgeGroup } from "@/lib/pets/age";
import { GOOD_WITH, PET_SIZES, type GoodWithKind, type PetSex, type PetSize } from "@/lib/pets/profile";
import type { Category, Pet } from "@/lib/pets/schemas/pet";
import type { PetStatus } from "@/lib/pets/schemas/fields";
import type { Organization } from "@/lib/organizations/schemas";
import type { PlainApiError } from "@/lib/site/plain-error";
import { DEFAULT_WITHIN_MI, WITHIN_CHOICES_MI, type WithinMiles } from "@/lib/core/units";

// The adopters' browser keeps its whole state in the page URL
// (?q=&near=&within=&status=&category=&sex=&size=&age=&goodWith=&houseTrained=&specialNeeds=&limit=&cursor=,
// the filters named and spelled as the API's), so a view can be shared, reloaded and
// reached with Back. This module is the one reading and writing of that URL,
// used by the server page (first render) and the client (every change after).
// No "use client": pure functions, safe on both sides, and no zod import, to
// keep the schemas out of the browse page's bundle. The /v1/pets request for
// a view is pets-api-query.ts: the browser needs it only for a later page.

export const BROWSE_STATUSES = ["available", "pending", "sold"] as const satisfies readonly PetStatus[];
/** The staff pages' words for the statuses (English only in issue 36; adopters' pages use messages' Words.status). */
export const STATUS_LABELS: Record<PetStatus, string> = { available: "Available", pending: "Pending", sold: "Sold" };

/**
 * The status a view shows: one status, or "all" of them. The page opens on
 * the animals an adopter can still adopt (`/` is Available), while the API's
 * own default stays every status: "all" is written `?status=all`, which the
 * page reads and never sends to the API. Links shared before this change
 * keep working: `?status=available` opens the same view as `/` (and is
 * written back as `/`), the other statuses are spelled as before.
 */
export type BrowseStatus = PetStatus | "all";
export const DEFAULT_STATUS = "available" satisfies BrowseStatus;

export const PAGE_SIZES = [10, 20, 50, 100] as const;
/** The API's limit on q, in characters (lib/core/schemas.ts SEARCH_MAX; no zod import here). */
export const SEARCH_MAX = 100;
export const DEFAULT_PAGE_SIZE = 20;

export interface BrowseQuery {
  /** Name search, trimmed, 1 to 100 characters. */
  q?: string;
  status: BrowseStatus;
  /** A category id. */
  category?: number;
  /** Female or male ("unknown" is not offered: nobody looks for it). */
  sex?: Exclude<PetSex, "unknown">;
  /** Any of these sizes; in the lists' own order, never empty. */
  size?: PetSize[];
  /** Any of these age groups. */
  age?: AgeGroup[];
  /** Known to get on with all of these. */
  goodWith?: GoodWithKind[];
  /** Only animals known to be house-trained (nobody looks for the others). */
  houseTrained?: true;
  /** Only animals known to have special needs (true), or known not to (false). */
  specialNeeds?: boolean;
  /** Near a place: a US ZIP code ("60601") or "lat,lng" (the browser's location, rounded). */
  near?: string;
  /** How far from `near`, in miles; the page's default (DEFAULT_WITHIN_MI) when not given. */
  within?: WithinMiles;
  limit: number;
  /** Opaque, taken from the API's Link header; the API judges it. */
  cursor?: string;
}

// An API failure as plain data (defined beside plainError, which makes one).

export interface PetPage {
  /** Whole records from /v1/pets, or only what the cards show (the server's first page: cardPet). */
  pets: CardPet[];
  /** The Link header, where the Previous and Next cursors come from. */
  link: string | null;
  /** The page's animals' shelters, by id, for the cards' shelter line (only when there is more than one shelter). */
  shelters?: Record<number, ShelterSummary>;
}

/**
 * What a card shows of an animal, and all the browse page sends the browser
 * of its first page (app/(site)/page.tsx, with cardPet in pet-card.tsx):
 * whole records (the description, the other photos, the profile's every
 * answer) were about a third of that page's payload, for cards the server
 * had drawn already.
 */
export type CardPet = Pick<Pet, "id" | "name" | "breed" | "categoryId" | "organizationId" | "sex" | "ageGroup" | "size" | "status" | "distanceKm" | "photos">;

/** What a card says of an animal's shelter. */
export type ShelterSummary = Pick<Organization, "id" | "name" | "slug"> & { city: string | null; region: string | null };

/** What the server render hands to the client: the first page for `query`, or why it failed. */
export interface InitialBrowse {
  query: BrowseQuery;
  fetchedAt: number;
  page?: PetPage;
  error?: PlainApiError;
  categories?: Category[];
  /** More than one shelter: the Near box, Within and the cards' shelter line are shown. */
  manyShelters: boolean;
}

/**
 * The view a URL asks for. Values the page cannot show (limit=7,
 * status=bogus, category=dogs) fall back to the defaults instead of failing;
 * a cursor is passed through and a bad one answered by the API's own 400.
 */
/** Search text as the API takes it: trimmed, at most SEARCH_MAX characters; undefined when blank. */
export function normaliseSearch(text: string | null | undefined): string | undefined {
  const trimmed = [...(text ?? "").trim()].slice(0, SEARCH_MAX).join("").trim();
  return trimmed || undefined;
}

/**
 * A comma-separated choice, kept in the list's order (so `age=young,baby`
 * and `age=baby,young` are one view and one cache entry); values outside the
 * list are dropped, and none left means no filter.
 */
export function parseChoices<T extends string>(text: string | null | undefined, choices: readonly T[]): T[] | undefined {
  const given = new Set((text ?? "").split(","));
  const kept = choices.filter((choice) => given.has(choice));
  return kept.length > 0 ? kept : undefined;
}

const SEXES = ["female", "male"] as const;

/**
 * `near` as the page keeps it: a ZIP code's five digits, or a point with four
 * decimals at most (about 10 m). Other text is kept (bounded) for the API
 * to refuse with a message that says what it understood.
 */
export function normaliseNear(text: string | null | undefined): string | undefined {
  const trimmed = (text ?? "").trim().slice(0, 60);
  if (!trimmed) return undefined;
  const zip = /^([0-9]{5})(?:-[0-9]{4})?$/.exec(trimmed);
  if (zip) return zip[1];
  const point = /^(-?[0-9]{1,2}(?:\.[0-9]+)?)\s*,\s*(-?[0-9]{1,3}(?:\.[0-9]+)?)$/.exec(trimmed);
  if (point) return `${Number(Number(point[1]).toFixed(4))},${Number(Number(point[2]).toFixed(4))}`;
  return trimmed;
}

/** Whether `near` is a point (the browser's location) rather than a ZIP code. */
export const nearIsPoint = (near: string) => near.includes(",");

/** `within=25mi`: one of the page's choices, else the default. */
function parseWithin(text: string | null | undefined): WithinMiles | undefined {
  const miles = /^([0-9]{1,3})mi$/.exec(text ?? "")?.[1];
  return WITHIN_CHOICES_MI.find((choice) => choice === Number(miles) && choice !== DEFAULT_WITHIN_MI);
}

/**
 * Reads a view from its parameters. A repeated parameter counts once (its
 * first value), except the lists, whose values join: a form sent without
 * JavaScript ticks boxes as `size=small&size=medium`.
 */
export function parseBrowseQuery(read: (name: string) => string | readonly string[] | null | undefined): BrowseQuery {
  const get = (name: string) => {
    const value = read(name);
    return typeof value === "string" || value == null ? value : value[0];
  };
  const list = (name: string) => {
    const value = read(name);
    return typeof value === "string" || value == null ? value : value.join(",");
  };
  const status = get("status");
  const category = get("category");
  const sex = get("sex");
  const limit = Number(get("limit"));
  const cursor = get("cursor");
  return {
    q: normaliseSearch(get("q")),
    status: status === "all" ? "all" : (BROWSE_STATUSES.find((s) => s === status) ?? DEFAULT_STATUS),
    category: category && /^[0-9]{1,16}$/.test(category) && Number(category) >= 1 && Number(category) <= Number.MAX_SAFE_INTEGER ? Number(category) : undefined,
    sex: SEXES.find((s) => s === sex),
    size: parseChoices(list("size"), PET_SIZES),
    age: parseChoices(list("age"), AGE_GROUPS),
    goodWith: parseChoices(list("goodWith"), GOOD_WITH),
    houseTrained: get("houseTrained") === "true" ? true : undefined,
    specialNeeds: get("specialNeeds") === "true" ? true : get("specialNeeds") === "false" ? false : undefined,
    near: normaliseNear(get("near")),
    within: parseWithin(get("within")),
    limit: PAGE_SIZES.find((size) => size === limit) ?? DEFAULT_PAGE_SIZE,
    cursor: cursor || undefined,
  };
}

/** The page URL for a view; defaults are left out, so the plain view is just "/". */
export function browseHref(query: BrowseQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.near) params.set("near", query.near);
  if (query.near && query.within && query.within !== DEFAULT_WITHIN_MI) params.set("within", `${query.within}mi`);
  if (query.status !== DEFAULT_STATUS) params.set("status", query.status);
  if (query.category !== undefined) params.set("category", String(query.category));
  if (query.sex) params.set("sex", query.sex);
  if (query.size) params.set("size", query.size.join(","));
  if (query.age) params.set("age", query.age.join(","));
  if (query.goodWith) params.set("goodWith", query.goodWith.join(","));
  if (query.houseTrained) params.set("houseTrained", "true");
  if (query.specialNeeds !== undefined) params.set("specialNeeds", String(query.specialNeeds));
  if (query.limit !== DEFAULT_PAGE_SIZE) params.set("limit", String(query.limit));
  if (query.cursor) params.set("cursor", query.cursor);
  const search = params.toString();
  return search ? `/?${search}` : "/";
}

export function sameQuery(a: BrowseQuery, b: BrowseQuery): boolean {
  return browseHref(a) === browseHref(b);
}

/** next-intl's translator for the "Browse" messages (useTranslations or getTranslations). */
export type BrowseT = (key: string, values?: Record<string, string | number>) => string;

/** The page's heading, also its title: "Available animals", "Animales disponibles". */
export function browseHeading(status: BrowseStatus, t: BrowseT): string {
  return t("heading", { status });
}

/**
 * How many filters of the Filters sheet differ from the plain view (a status
 * other than Available, a category, a sex, each list of ages, sizes or
 * good-with, house-trained, special needs), for its button: "Filters (2)". The name search sits outside
 * the sheet, and the page size is a preference, not a filter.
 */
export function activeFilterCount(query: BrowseQuery): number {
  const within = query.near !== undefined && query.within !== undefined && query.within !== DEFAULT_WITHIN_MI;
  return [
    query.status !== DEFAULT_STATUS,
    query.category !== undefined,
    query.sex,
    query.size,
    query.age,
    query.goodWith,
    query.houseTrained,
    query.specialNeeds !== undefined,
    within,
  ].filter(Boolean).length;
}

/** The view with every filter of the sheet cleared: the searches (name, place) and the page size stay. */
export function withoutFilters(query: BrowseQuery): BrowseQuery {
  return { q: query.q, near: query.near, status: DEFAULT_STATUS, limit: query.limit };
}

/** "within 50 mi of 60601": what a near search covers, in words. */
export function nearWords(query: BrowseQuery, t: BrowseT): string | undefined {
  if (!query.near) return undefined;
  const place = nearIsPoint(query.near) ? t("yourLocation") : query.near;
  return t("nearWords", { miles: query.within ?? DEFAULT_WITHIN_MI, place });
}
