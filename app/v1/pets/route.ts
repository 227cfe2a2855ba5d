import { withApi, otherMethods } from "@/lib/http/handler";
import { linkHeader, withCursor } from "@/lib/http/pagination";
import { listPetsQuerySchema, newPetSchema } from "@/lib/pets/schemas";
import { createPet, listPets } from "@/lib/pets/service";

// GET /v1/pets - list animals, newest first, keyset-paged through the Link header
export const GET = withApi({ scope: "pets:read", query: listPetsQuerySchema }, async ({ query, url }) => {
  const { pets, cursors } = await listPets(query);
  const link = linkHeader({
    next: cursors.next && withCursor(url, cursors.next),
    prev: cursors.prev && withCursor(url, cursors.prev),
  });
  return { body: pets, headers: { Link: link } };
});

// POST /v1/pets - add an animal
export const POST = withApi({ scope: "pets:write", body: newPetSchema }, async ({ body, url }) => {
  const pet = await createPet(body);
  return { status: 201, body: pet, headers: { Location: new URL(`${url.pathname}/${pet.id}`, url).toString() } };
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
