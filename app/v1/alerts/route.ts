import { newAlertSchema } from "@/lib/alerts/schemas";
import { createAlert } from "@/lib/alerts/service";
import { clientAddress } from "@/lib/core/client";
import { otherMethods, withApi } from "@/lib/http/handler";

// POST /v1/alerts - "Email me new matches": an alert for the browse page's filters, sent a confirmation email first (double opt-in)
export const POST = withApi({ scope: "applications:write", tenant: "public", body: newAlertSchema }, async ({ body, caller, request, now }) => ({
  status: 202,
  body: await createAlert(body, { address: caller.kind === "key" ? null : clientAddress(request), keyId: caller.kind === "key" ? caller.keyId : null, now }),
  headers: { "Cache-Control": "no-store" },
}));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
