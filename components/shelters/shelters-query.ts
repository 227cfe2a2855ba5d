import { DEFAULT_WITHIN_MI, WITHIN_CHOICES_MI, type WithinMiles } from "@/lib/core/units";

// The shelters directory keeps its state in the URL (/shelters?near=60601
// &within=25mi&cursor=…), so a search can be shared, reloaded and reached
// with Back. This module is the one reading and writing of that URL and the
// /v1/organizations request it makes; the server page uses it (the search
// form is a plain GET form, so the browser writes the URL itself).

export const SHELTERS_PAGE_SIZE = 20;
/** Longer than any ZIP+4 or latitude,longitude pair; the API says what is wrong with the rest. */
export const NEAR_MAX = 40;

export interface SheltersQuery {
  /** A US ZIP code or "lat,lng", as typed (trimmed); the API judges it. */
  near?: string;
  /** Only with `near`; the browse page's default when the URL has none. */
  within: WithinMiles;
  /** Opaque, from the API's Link header. */
  cursor?: string;
}

type Get = (name: string) => string | string[] | null | undefined;
const first = (value: string | string[] | null | undefined) => (Array.isArray(value) ? value[0] : (value ?? undefined));

/** The search a URL asks for; a `within` the page does not offer falls back to the default instead of failing. */
export function parseSheltersQuery(get: Get): SheltersQuery {
  const near = first(get("near"))?.replace(/\s+/g, " ").trim().slice(0, NEAR_MAX);
  const within = /^([0-9]+)mi$/.exec(first(get("within"))?.trim() ?? "");
  const cursor = first(get("cursor"));
  return {
    ...(near ? { near } : {}),
    within: WITHIN_CHOICES_MI.find((choice) => String(choice) === within?.[1]) ?? DEFAULT_WITHIN_MI,
    ...(cursor ? { cursor } : {}),
  };
}

/** The page's own URL for a search (within only with near: alone it means nothing). */
export function sheltersHref(query: SheltersQuery): string {
  const params = new URLSearchParams();
  if (query.near) {
    params.set("near", query.near);
    params.set("within", `${query.within}mi`);
  }
  if (query.cursor) params.set("cursor", query.cursor);
  const search = params.toString();
  return search ? `/shelters?${search}` : "/shelters";
}

/** The /v1/organizations request for a search: name order, or nearest first. */
export function sheltersApiPath(query: SheltersQuery): string {
  const params = new URLSearchParams({ limit: String(SHELTERS_PAGE_SIZE) });
  if (query.near) {
    params.set("near", query.near);
    params.set("within", `${query.within}mi`);
  }
  if (query.cursor) params.set("cursor", query.cursor);
  return `/v1/organizations?${params}`;
}

/** A position rather than a ZIP code: "Use my location" put it there. */
export function isPosition(near: string): boolean {
  return /^[+-]?[0-9.]+\s*,\s*[+-]?[0-9.]+$/.test(near);
}

/** The next wider distance the page offers, for the empty state; undefined at the widest. */
export function widerThan(within: WithinMiles): WithinMiles | undefined {
  return WITHIN_CHOICES_MI.find((choice) => choice > within);
}

/**
 * What to say next to the Near box when the API refused `near`: an unknown
 * ZIP code (400 unknown_location) or text that is neither a ZIP code nor a
 * position (400 invalid_query on `near`). undefined for any other refusal,
 * which the page shows as an error of the whole search.
 */
export function nearProblem(
  error: { status: number; code?: string; details?: { field: string }[] },
  near: string | undefined,
  /** The "Shelters" messages' translator, in the page's language. */
  t: (key: "unknownZip" | "unknownPlace" | "offTheMap" | "notAZip", values?: Record<string, string>) => string,
): string | undefined {
  if (error.status !== 400 || !near) return undefined;
  const zip = /^([0-9]{5})(?:-[0-9]{4})?$/.exec(near)?.[1];
  if (error.code === "unknown_location") {
    return zip ? t("unknownZip", { zip }) : t("unknownPlace");
  }
  if (error.code === "invalid_query" && error.details?.some((d) => d.field === "near")) {
    return isPosition(near) ? t("offTheMap") : t("notAZip", { near });
  }
  return undefined;
}

/** The cursor of a Link header's relation (rel="next" or "prev"), for this page's own URLs. */
export function linkCursor(link: string | null, rel: "next" | "prev"): string | undefined {
  for (const part of (link ?? "").split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (match && match[2] === rel) return new URL(match[1]!, "http://x").searchParams.get("cursor") ?? undefined;
  }
  return undefined;
}
