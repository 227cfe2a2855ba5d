import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  applicationIdParamsSchema,
  applicationListQuerySchema,
  applicationSchema,
  applicationStatusSchema,
  tokenParamsSchema,
  transitionSchema,
} from "@/lib/applications/schemas";
import { historyQuerySchema } from "@/lib/audit/schemas";
import { historyEntrySchema } from "@/lib/pets/schemas/history";
import { dashboardSchema } from "@/lib/dashboard/schemas";
import { apiKeySummarySchema, keyIdParamsSchema, newApiKeySchema } from "@/lib/keys/schemas";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";
import { sessionInfoSchema, signInSchema } from "@/lib/staff/schemas";
import { keyWebhookParamsSchema, staffWebhookSchema, staffWebhooksSchema } from "@/lib/webhooks/schemas";
import { listingSiteHistoryEntrySchema, listingSiteHistoryQuerySchema } from "@/lib/listings/uploads/schemas";

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
      200: {
        ...ok("Signed in; the session cookie is set.", sessionInfoSchema),
        headers: { ...COMMON_HEADERS, "Set-Cookie": header("The staff session cookie.") },
      },
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
    description:
      "An organisation's staff issue its keys on the free, pro or business plan with their standard limits (403 for enterprise or custom limits), while it has fewer than 20 live keys (409 `too_many_keys`). Platform admins issue any plan and limits, for any organisation or the platform.",
    ...site,
    request: { body: { required: true, content: json(newApiKeySchema) } },
    responses: {
      201: ok("The key (shown once) and its summary.", z.object({ key: z.string(), summary: apiKeySummarySchema })),
      400: errorResponse(400, ["invalid_json", "invalid_body"]),
      409: errorResponse(409, ["too_many_keys"], {}, "The organisation already has 20 live keys (`too_many_keys`): revoke one first."),
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

  registry.registerPath({
    method: "get",
    path: "/listing-sites/history",
    operationId: "getListingSiteHistory",
    summary: "Who added, changed and removed the listing sites (staff)",
    description:
      "The organisation's listing-site audit trail (every organisation's for a platform admin), newest first, removed sites' included: who (the key or staff account), in which request, which fields with their values before and after. A new password is named in `fields`, never shown. `siteId` narrows it to one site. Scope `audit:read`: staff sessions only.",
    ...site,
    request: { query: listingSiteHistoryQuerySchema },
    responses: {
      200: {
        ...ok("Changes, newest first.", z.array(listingSiteHistoryEntrySchema)),
        headers: { ...COMMON_HEADERS, Link: header('`rel="next"` for older changes.') },
      },
      400: errorResponse(400, ["invalid_query", "invalid_cursor"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/dashboard",
    operationId: "getDashboard",
    summary: "The shelter at a glance (staff)",
    description:
      "Staff sessions only (`audit:read`). Animals by status, applications waiting for a decision, and from the audit trail the intakes and adoptions of each of the last 12 weeks (Monday to Sunday, UTC) with the median days from intake to adoption.",
    ...site,
    responses: { 200: ok("The figures, as of `asOf`.", dashboardSchema), ...commonErrors() },
  });

  // Adoption applications: the applicant's private link, and staff's inbox and steps.
  const linkNotFound = errorResponse(404, ["not_found"], {}, "No application at this link.");
  registry.registerPath({
    method: "get",
    path: "/application-links/{token}",
    operationId: "getApplicationByLink",
    summary: "The applicant's own application (the token of the private link is the credential)",
    ...site,
    request: { params: tokenParamsSchema },
    responses: { 200: ok("The application.", applicationStatusSchema), 400: errorResponse(400, ["invalid_path"]), 404: linkNotFound, ...commonErrors() },
  });
  registry.registerPath({
    method: "post",
    path: "/application-links/{token}/withdraw",
    operationId: "withdrawApplication",
    summary: "The applicant withdraws an application still undecided",
    ...site,
    request: { params: tokenParamsSchema },
    responses: {
      200: ok("Withdrawn.", applicationStatusSchema),
      400: errorResponse(400, ["invalid_path"]),
      404: linkNotFound,
      409: errorResponse(409, ["invalid_transition"], {}, "Already decided (or withdrawn)."),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/applications",
    operationId: "listApplications",
    summary: "Staff's inbox of applications, newest first",
    description: "Staff sessions only (`applications:manage`). `X-Next-Before` names the id to pass as `before` for the next page.",
    ...site,
    request: { query: applicationListQuerySchema },
    responses: {
      200: {
        description: "A page of applications.",
        headers: { ...COMMON_HEADERS, "X-Next-Before": header("`before` for the next page, when there is one.") },
        content: json(z.array(applicationSchema)),
      },
      400: errorResponse(400, ["invalid_query"]),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/applications/{applicationId}",
    operationId: "getApplication",
    summary: "One application with its steps",
    ...site,
    request: { params: applicationIdParamsSchema },
    responses: {
      200: ok("The application.", applicationSchema),
      400: errorResponse(400, ["invalid_path"]),
      404: errorResponse(404, ["not_found"]),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/applications/{applicationId}/transitions",
    operationId: "transitionApplication",
    summary: "A staff step: in_review, approved (the animal becomes pending), declined, completed (sold), cancelled (available again)",
    description:
      "Approve, complete and cancel change the animal (a new version, an audit record, a `pet.updated` event), so they honour `If-Match` with the animal's ETag (the application's `petVersion` in quotes), as `PATCH /pets/{petId}` does: a stale one is 412 and nothing changes. Review and decline leave the animal alone and ignore it.",
    ...site,
    request: {
      params: applicationIdParamsSchema,
      headers: z.object({
        "If-Match": z.string().optional().meta({
          description: 'Only take the step if the animal\'s ETag is one of these (`"3"`); `*` for any. Strong comparison: a weak tag never matches.',
          example: '"1"',
        }),
      }),
      body: { required: true, content: json(transitionSchema) },
    },
    responses: {
      200: ok("The application after the step.", applicationSchema),
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body", "invalid_header"]),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(
        409,
        ["invalid_transition", "not_available", "adoption_in_progress"],
        {},
        "The step does not follow from the state (`invalid_transition`), the animal is pending or sold (`not_available`), or another application for it is already approved (`adoption_in_progress`).",
      ),
      412: errorResponse(
        412,
        ["precondition_failed"],
        {},
        "`If-Match` (or `petVersion`) does not name the animal's version: someone changed it meanwhile. The `ETag` header gives the current one.",
      ),
      ...commonErrors(),
    },
  });
}
