import { GENERIC_FIELDS } from "@/lib/listings/formats/generic";

// The words of an import's screens: the formats' names, and a generic CSV's
// columns matched to our fields (the mapping step of components/staff/import-panel.tsx).

export const FORMAT_NAMES: Record<string, string> = { petfinder: "Petfinder", adoptapet: "Adopt-a-Pet", rescuegroups: "RescueGroups", generic: "Generic CSV" };
export const FIELD_WORDS: Partial<Record<(typeof GENERIC_FIELDS)[number], string>> = {
  externalId: "ID (your software's)",
  name: "Name (required)",
  species: "Species (required)",
  photoUrls: "Photo address",
};

export type Mapping = Record<string, string>;

/** A guess of which column holds a field, by its name. */
export function guessMapping(columns: string[], remembered: Mapping | null): Mapping {
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  const out: Mapping = {};
  for (const field of GENERIC_FIELDS) {
    const was = remembered?.[field];
    if (typeof was === "string" && columns.includes(was)) out[field] = was;
    else {
      const hit = columns.find(
        (c) => squash(c) === squash(field) || (field === "externalId" && /^(animal)?id$/.test(squash(c))) || (field === "species" && squash(c) === "type"),
      );
      if (hit) out[field] = hit;
    }
  }
  return out;
}
