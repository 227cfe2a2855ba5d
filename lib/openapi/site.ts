import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { historyEntrySchema, historyQuerySchema } from "@/lib/audit/schemas";
import { apiKeySummarySchema, keyIdParamsSchema, newApiKeySchema } from "@/lib/keys/schemas";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/document";
import { petIdParamsSchema } from "@/lib/pets/schemas";
import { sessionInfoSchema, signInSchema } from "@/lib/staff/schemas";
import { keyWebhookParamsSchema, staffWebhookSchema, staffWebhooksSchema } from "@/lib/webhooks/schemas";

// The site's own /v1 endpoints (browser sessions; staff key management and
// the audit trail). API keys never hold their scopes, so the partner
// document leaves them out; this site-only document adds them so that the
// pages' calls are typed from a contract too (npm run openapi:types).

export function registerSitePaths(registry: OpenAPIRegistry): void {
  const json = <S extends z.ZodType>(schema: S) => ({ "application/json": { schema } });
  const ok = <S extends z.ZodType>(description: string, schema: S) => ({ description, headers: COMMON_HEADERS, content: json(schema) });
  const site = { tags: ["site"], security: [] };
  const keyNotFound = errorResponse(404, ["not_found"], {}, "No such API key (or endpoint).");

  registry.registerPath({
    method: "get",
    path: "/session",
    operationId: "getSession",
    summary: "Who this browser session is",
    ...site,
    responses: { 200: ok("The session.", sessionInfoSchema), ...commonErrors() },
  });
  registry.registerPath({
    method: "post",
    path: "/session",
    operationId: "signIn",
    summary: "Staff sign-in",
    ...site,
    request: { body: { required: true, content: json(signInSchema) } },
    responses: {
      200: { ...ok("Signed in; the session cookie is set.", sessionInfoSchema), headers: { ...COMMON_HEADERS, "Set-Cookie": header("The staff session cookie.") } },
      400: errorResponse(400, ["invalid_json", "invalid_body"]),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "delete",
    path: "/session",
    operationId: "signOut",
    summary: "Sign out",
    ...site,
    responses: { 204: { description: "Signed out.", headers: COMMON_HEADERS }, ...commonErrors() },
  });

  registry.registerPath({
    method: "get",
    path: "/keys",
    operationId: "listKeys",
    summary: "Every API key with today's usage (staff)",
    ...site,
    responses: { 200: ok("The keys.", z.array(apiKeySummarySchema)), ...commonErrors() },
  });
  registry.registerPath({
    method: "post",
    path: "/keys",
    operationId: "createKey",
    summary: "Issue an API key (staff)",
    ...site,
    request: { body: { required: true, content: json(newApiKeySchema) } },
    responses: {
      201: ok("The key (shown once) and its summary.", z.object({ key: z.string(), summary: apiKeySummarySchema })),
      400: errorResponse(400, ["invalid_json", "invalid_body"]),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "delete",
    path: "/keys/{keyId}",
    operationId: "revokeKey",
    summary: "Revoke an API key (staff)",
    ...site,
    request: { params: keyIdParamsSchema },
    responses: { 200: ok("The revoked key.", apiKeySummarySchema), 404: keyNotFound, ...commonErrors() },
  });
  registry.registerPath({
    method: "delete",
    path: "/keys/{keyId}/ban",
    operationId: "liftKeyBan",
    summary: "Lift a key's temporary ban (staff)",
    ...site,
    request: { params: keyIdParamsSchema },
    responses: { 200: ok("The key.", apiKeySummarySchema), 404: keyNotFound, ...commonErrors() },
  });
  registry.registerPath({
    method: "get",
    path: "/keys/{keyId}/webhooks",
    operationId: "listKeyWebhooks",
    summary: "A key's webhook endpoints and their state (staff)",
    ...site,
    request: { params: keyIdParamsSchema },
    responses: { 200: ok("The key's endpoints.", staffWebhooksSchema), ...commonErrors() },
  });
  registry.registerPath({
    method: "post",
    path: "/keys/{keyId}/webhooks/{webhookId}/disable",
    operationId: "disableKeyWebhook",
    summary: "Disable a webhook endpoint (staff)",
    ...site,
    request: { params: keyWebhookParamsSchema },
    responses: { 200: ok("The endpoint, disabled.", staffWebhookSchema), 404: keyNotFound, ...commonErrors() },
  });
  registry.registerPath({
    method: "get",
    path: "/pets/{petId}/history",
    operationId: "getPetHistory",
    summary: "An animal's audit trail (staff)",
    ...site,
    request: { params: petIdParamsSchema, query: historyQuerySchema },
    responses: {
      200: { ...ok("Changes, newest first.", z.array(historyEntrySchema)), headers: { ...COMMON_HEADERS, Link: header('`rel="next"` for older changes.') } },
      404: errorResponse(404, ["not_found"]),
      ...commonErrors(),
    },
  });
}
