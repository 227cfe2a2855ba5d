import { fosterViewByToken, updateFosterPreferences } from "@/lib/fosters/links";
import { fosterPreferencesPatchSchema, fosterTokenParamsSchema } from "@/lib/fosters/links-schemas";
import { otherMethods, withApi } from "@/lib/http/handler";

const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

// GET /v1/foster-links/{token} - the foster's own page: their animals now, their capacity, species and blackouts (the token is the credential)
export const GET = withApi({ scope: null, tenant: "public", params: fosterTokenParamsSchema }, async ({ params, now }) => ({
  body: await fosterViewByToken(params.token, now),
  headers: PRIVATE,
}));

// PATCH /v1/foster-links/{token} - the foster changes their capacity, species or blackout days
export const PATCH = withApi(
  { scope: null, tenant: "public", params: fosterTokenParamsSchema, body: fosterPreferencesPatchSchema },
  async ({ params, body, now }) => ({ body: await updateFosterPreferences(params.token, body, now), headers: PRIVATE }),
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(["GET", "PATCH"]);
