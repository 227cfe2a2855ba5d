import { z } from "zod";
import { COAT_LENGTHS } from "@/lib/pets/profile";

// The listing sites' vocabulary's shapes in the API (lib/listings/vocabulary has the words). No import from lib/pets/schemas/pet.ts:
// that module builds its Category on these.

/** A Pet's coatLength and a category's coat lengths: Petfinder's coats, lower-cased (the one CoatLength of the document). */
export const coatLengthSchema = z
  .enum(COAT_LENGTHS, { error: () => `must be one of ${COAT_LENGTHS.join(", ")}, or null` })
  .meta({ id: "CoatLength", description: "Length of the coat, as the listing sites name it (Petfinder's coats, lower-cased).", example: "short" });

export const categoryColorsSchema = z.array(z.string()).meta({
  description:
    "The colours this category's animals are described with, as Petfinder names them for the kind of animal (empty for a category the listing sites have no words for). A Pet's `colors` should be among them for the listing sites to take them.",
  example: ["Black", "Brindle", "White / Cream"],
});

export const categoryCoatLengthsSchema = z.array(coatLengthSchema).meta({
  description: "The coat lengths that apply to this category's animals (empty where Petfinder has none, as for birds and reptiles).",
  example: ["short", "long"],
});

const siteName = (site: string) => z.string().meta({ description: `${site}'s name for the breed (what its file carries).`, example: "Labrador Retriever" });

export const categoryBreedSchema = z
  .object({
    name: z.string().meta({ description: "Our name for the breed: offer it as a `breed` value (Petfinder's name).", example: "Labrador Retriever" }),
    petfinder: siteName("Petfinder"),
    adoptapet: siteName("Adopt-a-Pet"),
    rescuegroups: siteName("RescueGroups"),
  })
  .meta({ id: "CategoryBreed", description: "A breed the listing sites know, and each site's name for it." });
export type CategoryBreed = z.infer<typeof categoryBreedSchema>;

export const categoryBreedsSchema = z.array(categoryBreedSchema).meta({ id: "CategoryBreeds", description: "The category's breeds, by name." });
