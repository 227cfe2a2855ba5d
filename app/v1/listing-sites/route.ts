import { writeContext } from "@/lib/http/actor";
import { otherMethods, withApi } from "@/lib/http/handler";
import { newListingSiteSchema } from "@/lib/listings/uploads/schemas";
import { createListingSite, listListingSites } from "@/lib/listings/uploads/service";

// GET /v1/listing-sites - the organisation's listing-site accounts (a platform caller: every organisation's)
export const GET = withApi({ scope: "listings:manage", tenant: "caller" }, async ({ caller }) => ({ body: await listListingSites(caller.tenancy) }));

// POST /v1/listing-sites - add an account on Petfinder, Adopt-a-Pet or RescueGroups; the password is stored sealed and never shown; audited
export const POST = withApi({ scope: "listings:manage", tenant: "caller", body: newListingSiteSchema }, async ({ caller, body, url, requestId }) => {
  const site = await createListingSite(body, writeContext(caller, requestId));
  return { status: 201, body: site, headers: { Location: new URL(`${url.pathname}/${site.id}`, url).toString() } };
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
