// The listing sites we write files for, and the file formats we read.

export const LISTING_SITES = ["petfinder", "adoptapet", "rescuegroups"] as const;
export type ListingSite = (typeof LISTING_SITES)[number];

export const LISTING_FORMATS = [...LISTING_SITES, "generic"] as const;
export type ListingFormatName = (typeof LISTING_FORMATS)[number];

export const SITE_NAMES: Record<ListingSite, string> = { petfinder: "Petfinder", adoptapet: "Adopt-a-Pet", rescuegroups: "RescueGroups" };
