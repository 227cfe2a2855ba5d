import { addFosterNote } from "@/lib/fosters/links";
import { fosterTokenParamsSchema, newFosterNoteSchema } from "@/lib/fosters/links-schemas";
import { otherMethods, withApi } from "@/lib/http/handler";

// POST /v1/foster-links/{token}/notes - a note about one of the foster's animals, for staff (who are emailed)
export const POST = withApi({ scope: null, tenant: "public", params: fosterTokenParamsSchema, body: newFosterNoteSchema }, async ({ params, body, now }) => ({
  status: 201,
  body: await addFosterNote(params.token, body, now),
  headers: { "Cache-Control": "no-store" },
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
