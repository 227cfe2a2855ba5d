import { z } from "zod";
import { KM_PER_MILE } from "@/lib/core/units";

// Places and distances. A place is a point (lat, lng) on a sphere of the
// Earth's mean radius; distances are great-circle, in kilometres on the wire.
// PostgreSQL keeps each organisation's point as a 3-D cube in metres
// (geo_point(), migration 20261126000000) and its GiST index orders by the
// straight-line distance through the Earth (the chord), which grows with the
// great-circle distance: searches walk and page by the chord, and answers
// turn it into kilometres here. Every figure below uses the same radius, so
// a distance shown, a `within` bound and the database's order always agree.

/** The Earth's mean radius (IUGG), in metres: geo_point() in the migration uses the same. */
export const EARTH_RADIUS_M = 6_371_008.8;

/** `within` when it is not given, and its ceilings in each unit. */
export const WITHIN_DEFAULT = { value: 100, unit: "km" } as const;
export const WITHIN_MAX = { km: 800, mi: 500 } as const;
/**
 * Its floor, in km: a shelter's own block. Smaller figures say nothing a
 * person means, and a denormal one (0.000…1km) underflows to a radius of 0,
 * which the database refuses.
 */
export const WITHIN_MIN_KM = 0.1;

export interface LatLng {
  lat: number;
  lng: number;
}

/** The chord (straight line through the Earth, metres) between two points `km` apart along the surface. */
export function chordOfKm(km: number): number {
  const angle = (km * 1000) / EARTH_RADIUS_M;
  // Beyond half the Earth's circumference every point is within reach.
  return angle >= Math.PI ? 2 * EARTH_RADIUS_M : 2 * EARTH_RADIUS_M * Math.sin(angle / 2);
}

/** The great-circle distance in km of a chord (metres): the inverse of chordOfKm. */
export function kmOfChord(chord: number): number {
  const half = Math.min(1, chord / (2 * EARTH_RADIUS_M));
  return (2 * EARTH_RADIUS_M * Math.asin(half)) / 1000;
}

/** As answers show it: kilometres to one decimal. */
export function roundKm(km: number): number {
  return Math.round(km * 10) / 10;
}

/** Haversine great-circle distance in km (what tests check the database's order against, and what the site shows). */
export function haversineKm(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return (2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))) / 1000;
}

/** What `near` says before any look-up: a point, or a US ZIP code still to be found. */
export type NearInput = { kind: "point"; lat: number; lng: number } | { kind: "zip"; zip: string };

const ZIP = /^([0-9]{5})(?:-[0-9]{4})?$/;
const DECIMAL = "[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)";
const POINT = new RegExp(`^\\s*(${DECIMAL})\\s*,\\s*(${DECIMAL})\\s*$`);
/** What `near` accepts, as the document states it (the ranges of a point are checked after). */
const NEAR_PATTERN = `^\\s*(?:[0-9]{5}(?:-[0-9]{4})?|${DECIMAL}\\s*,\\s*${DECIMAL})\\s*$`;
/** What `within` accepts, as the document states it (its range is checked after, in km). */
const WITHIN_PATTERN = /^\s*([0-9]{1,4}(?:\.[0-9]{1,3})?)\s*(km|mi)\s*$/i;
const WITHIN_LENGTH_MAX = 24;

/**
 * `near`: "41.88,-87.62" (latitude first, as maps show it) or a US ZIP code
 * ("60601", or ZIP+4 "60601-1234", whose first five digits count). The
 * messages say what was understood, so a caller sees how to fix it.
 */
export const nearSchema = z
  .string()
  .transform((raw, ctx): NearInput => {
    const text = raw.trim();
    const zip = ZIP.exec(text);
    if (zip) return { kind: "zip", zip: zip[1]! };
    const point = POINT.exec(text);
    if (!point) {
      ctx.addIssue({
        code: "custom",
        message: `must be a US ZIP code (e.g. 60601) or a latitude,longitude pair in degrees (e.g. 41.88,-87.62); "${text.slice(0, 40)}" is neither`,
      });
      return z.NEVER;
    }
    const lat = Number(point[1]);
    const lng = Number(point[2]);
    if (lat < -90 || lat > 90) {
      ctx.addIssue({ code: "custom", message: `was read as latitude ${lat}, longitude ${lng}: a latitude must be from -90 to 90 (latitude comes first)` });
      return z.NEVER;
    }
    if (lng < -180 || lng > 180) {
      ctx.addIssue({ code: "custom", message: `was read as latitude ${lat}, longitude ${lng}: a longitude must be from -180 to 180` });
      return z.NEVER;
    }
    return { kind: "point", lat, lng };
  })
  .meta({
    type: "string",
    pattern: NEAR_PATTERN,
    description:
      "Search near a place: a US ZIP code (`60601`; ZIP+4 counts by its first five digits) or `latitude,longitude` in decimal degrees (`41.88,-87.62`, anywhere on Earth). Results are then nearest first, each with `distanceKm`. ZIP code centres: GeoNames (geonames.org), CC BY 4.0.",
    example: "60601",
  });

/** `within`: a distance with its unit, `25mi` or `40km`; answered in kilometres. */
export const withinSchema = z
  .string()
  .transform((raw, ctx) => {
    // At most 4 digits before the point and 3 after: a figure, not a denormal of 300 zeros.
    const match = raw.length <= WITHIN_LENGTH_MAX ? WITHIN_PATTERN.exec(raw) : null;
    if (!match) {
      ctx.addIssue({
        code: "custom",
        message: `must be a distance with its unit, km or mi, with at most 3 decimals (e.g. 25mi or 40km); got "${raw.slice(0, 40)}"`,
      });
      return z.NEVER;
    }
    const value = Number(match[1]);
    const unit = match[2]!.toLowerCase() as "km" | "mi";
    const km = unit === "km" ? value : value * KM_PER_MILE;
    if (km < WITHIN_MIN_KM) {
      ctx.addIssue({ code: "custom", message: `must be at least ${WITHIN_MIN_KM}km (${Math.ceil((WITHIN_MIN_KM / KM_PER_MILE) * 1000) / 1000}mi)` });
      return z.NEVER;
    }
    if (value > WITHIN_MAX[unit]) {
      ctx.addIssue({ code: "custom", message: `must be at most ${WITHIN_MAX.km}km or ${WITHIN_MAX.mi}mi (got ${value}${unit})` });
      return z.NEVER;
    }
    return km;
  })
  .meta({
    type: "string",
    // JSON Schema's patterns have no flags: the unit's letters in either case, spelled out.
    pattern: "^\\s*[0-9]{1,4}(?:\\.[0-9]{1,3})?\\s*(?:[Kk][Mm]|[Mm][Ii])\\s*$",
    maxLength: WITHIN_LENGTH_MAX,
    description: `How far from \`near\`: a number (at most 3 decimals) and a unit, \`km\` or \`mi\` (e.g. \`25mi\`); default \`${WITHIN_DEFAULT.value}${WITHIN_DEFAULT.unit}\`, at least \`${WITHIN_MIN_KM}km\`, at most \`${WITHIN_MAX.km}km\` / \`${WITHIN_MAX.mi}mi\`. Only with \`near\`.`,
    example: "25mi",
  });

/** The refinement every near-capable query shares: `within` needs `near`. */
export function withinNeedsNear(query: { near?: NearInput; within?: number }, ctx: z.RefinementCtx): void {
  if (query.within !== undefined && query.near === undefined) {
    ctx.addIssue({ code: "custom", path: ["within"], message: "needs `near`: say where to measure from (a US ZIP code or latitude,longitude)" });
  }
}

/** A search resolved to a point, with its radius. */
export interface NearSearch {
  point: LatLng;
  withinKm: number;
  /** Chord (metres) of withinKm: the database's bound. */
  maxChord: number;
}

/** Where a near search stands: the search point, and how far it reaches (lib/pets/queries/near.ts walks organisations by it). */
export interface NearWalk {
  /** The search point's coordinates. */
  lat: number;
  lng: number;
  /** The search radius as a chord (metres). */
  maxChord: number;
}
