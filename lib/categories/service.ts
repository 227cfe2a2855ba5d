import { notFound } from "@/lib/core/errors";
import { breedsOf } from "@/lib/listings/vocabulary/breeds";
import { categoryVocabulary } from "@/lib/listings/vocabulary/colors";
import { listedKindOf } from "@/lib/listings/vocabulary/kinds";
import type { CategoryBreed } from "@/lib/pets/schemas/vocabulary";
import { findCategories } from "@/lib/pets/queries/lookups";
import type { Category } from "@/lib/pets/schemas/pet";

// Categories and the listing sites' words for their animals. The rows are
// few and read whole; the words come from lib/listings/vocabulary, by the
// category's name.

export async function listCategories(): Promise<Category[]> {
  return (await findCategories()).map((c) => ({ id: Number(c.id), name: c.name, ...categoryVocabulary(c.name) }));
}

/** The breeds of a category, each with the sites' names; empty for a category the sites have no words for. 404 when there is no such category. */
export async function listCategoryBreeds(categoryId: number): Promise<CategoryBreed[]> {
  const category = (await findCategories()).find((c) => Number(c.id) === categoryId);
  if (!category) throw notFound(`There is no category with id ${categoryId}. GET /v1/categories lists them.`);
  const kind = listedKindOf(category.name);
  return kind ? breedsOf(kind).map(({ name, petfinder, adoptapet, rescuegroups }) => ({ name, petfinder, adoptapet, rescuegroups })) : [];
}
