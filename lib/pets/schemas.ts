// The single source of truth for the shapes of the pets API: request
// parsing, TypeScript types, the OpenAPI document and the staff form all
// derive from these schemas. This module only gathers them; each part lives
// in lib/pets/schemas/ and imports none of this index:
//   fields.ts      status, name, the profile, listing-site fields, fee, video
//   pet.ts         Photo, NewPet, Pet, PetPatch, the fields a change is about, Category
//   list-query.ts  GET /v1/pets's query string
//   params.ts      path parameters, photo upload and edit
//   history.ts     an entry of an animal's history (GET /v1/pets/{petId}/history)
//   vocabulary.ts  the listing sites' words as the API shows them (coat length, a category's colours and breeds)
// and the building blocks every domain shares (ids, paging, search) in lib/core/schemas.ts.

export { characterCount, idListSchema, idSchema, IDS_MAX, LIMIT_DEFAULT, LIMIT_MAX, queryInteger, searchSchema, SEARCH_MAX } from "@/lib/core/schemas";
export * from "@/lib/pets/schemas/fields";
export * from "@/lib/pets/schemas/pet";
export * from "@/lib/pets/schemas/list-query";
export * from "@/lib/pets/schemas/params";
export * from "@/lib/pets/schemas/history";
