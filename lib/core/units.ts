// Distances as the site offers them, shared by the API's parsing
// (lib/organizations/geo.ts) and the browse page's URL (components/pets/
// browse-query.ts), which must stay free of zod to keep the page light.

export const KM_PER_MILE = 1.609344;

/** The site's choices of distance, in miles (its adopters are in the US). */
export const WITHIN_CHOICES_MI = [10, 25, 50, 100, 250] as const;
export type WithinMiles = (typeof WITHIN_CHOICES_MI)[number];

/** The site's distance when only a place is given. */
export const DEFAULT_WITHIN_MI: WithinMiles = 50;

/** "12 mi away", "Less than a mile away": a distance in km as adopters read it. */
export function milesAway(km: number): string {
  const miles = km / KM_PER_MILE;
  if (miles < 1) return "Less than a mile away";
  return `${Math.round(miles).toLocaleString("en-US")} mi away`;
}
