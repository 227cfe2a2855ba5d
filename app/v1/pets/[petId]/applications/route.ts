import { applicationInputSchema } from "@/lib/applications/schemas";
import { submitApplication } from "@/lib/applications/service";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/core/client";
import { otherMethods, withApi } from "@/lib/http/handler";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";

// POST /v1/pets/{petId}/applications - apply to adopt (the site's form, or a partner forwarding an adopter's application)
export const POST = withApi(
  { scope: "applications:write", tenant: "public", params: petIdParamsSchema, body: applicationInputSchema },
  async ({ params, body, caller, request, requestId, now, url }) => {
    const { PUBLIC_BASE_URL } = env();
    const created = await submitApplication(params.petId, body, {
      actor: caller.kind === "key" ? { kind: "api_key", id: Number(caller.keyId) } : { kind: "adopter" },
      address: clientAddress(request),
      requestId,
      // The answer's statusUrl only: links in emails never follow the request (lib/mail/links.ts).
      origin: PUBLIC_BASE_URL ? new URL(PUBLIC_BASE_URL).origin : url.origin,
      now,
    });
    const { id, state, statusUrl } = created;
    return { status: 201, body: { id, state, statusUrl }, headers: { "Cache-Control": "no-store" } };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
