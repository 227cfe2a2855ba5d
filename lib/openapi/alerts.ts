import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { alertCreatedSchema, alertPatchSchema, alertTokenParamsSchema, alertUnsubscribedSchema, alertViewSchema, newAlertSchema } from "@/lib/alerts/schemas";
import { COMMON_HEADERS, commonErrors, errorResponse } from "@/lib/openapi/builders";

// Alerts in the contract: creating one (the site's "Email me new matches",
// or a listing site forwarding an adopter's wish: scope applications:write)
// in the partner document; the private link's operations (the token is the
// credential, no key) in the site document only.

export function registerAlerts(registry: OpenAPIRegistry, security: Record<string, string[]>[], audience: "partner" | "site"): void {
  const json = { "application/json": { schema: alertViewSchema } };
  registry.registerPath({
    method: "post",
    path: "/alerts",
    operationId: "createAlert",
    summary: "Email me new matches: an alert for new animals matching filters",
    description:
      'Double opt-in: the answer is always 202 and a confirmation email goes to `email`; nothing is matched or sent until its link is opened, and an unconfirmed alert is deleted after 7 days. The answer is the same whether or not the address already had alerts. An address counts as the inbox it reaches (`+tags`, and dots at Gmail, are ignored): at most 10 alerts an address (409 `too_many_alerts`); at most 3 confirmation emails an hour and 6 a day to one address, 20 alerts an hour from one browser\'s address, and 100 an hour and 1,000 a day from one API key (429 with Retry-After). A `near` point is stored rounded to 2 decimals. The confirmation email never carries the text of `q` ("a name search"). `website` is a honeypot: any value is refused.',
    tags: ["alerts"],
    security,
    request: { body: { required: true, content: { "application/json": { schema: newAlertSchema } } } },
    responses: {
      202: { description: "The confirmation email is on its way.", headers: COMMON_HEADERS, content: { "application/json": { schema: alertCreatedSchema } } },
      400: errorResponse(400, ["invalid_json", "invalid_body", "unknown_category", "unknown_location"]),
      409: errorResponse(409, ["too_many_alerts"], {}, "This address already has 10 alerts (`too_many_alerts`)."),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });
  if (audience !== "site") return;

  const site = { tags: ["site"], security: [] };
  const notFound = errorResponse(404, ["not_found"], {}, "No alert at this link (deleted, or never confirmed within 7 days).");
  registry.registerPath({
    method: "get",
    path: "/alerts/{token}",
    operationId: "getAlert",
    summary: "An alert by its private link: its filters in words, how often, whether it is confirmed or paused",
    ...site,
    request: { params: alertTokenParamsSchema },
    responses: {
      200: { description: "The alert.", headers: COMMON_HEADERS, content: json },
      400: errorResponse(400, ["invalid_path"]),
      404: notFound,
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "patch",
    path: "/alerts/{token}",
    operationId: "patchAlert",
    summary: "Pause or resume an alert",
    ...site,
    request: { params: alertTokenParamsSchema, body: { required: true, content: { "application/json": { schema: alertPatchSchema } } } },
    responses: {
      200: { description: "The alert after the change.", headers: COMMON_HEADERS, content: json },
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body"]),
      404: notFound,
      409: errorResponse(409, ["not_confirmed"], {}, "The alert is not confirmed yet (`not_confirmed`)."),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "delete",
    path: "/alerts/{token}",
    operationId: "deleteAlert",
    summary: "Delete an alert, with whatever it had waiting",
    ...site,
    request: { params: alertTokenParamsSchema },
    responses: { 204: { description: "Deleted.", headers: COMMON_HEADERS }, 400: errorResponse(400, ["invalid_path"]), 404: notFound, ...commonErrors() },
  });
  registry.registerPath({
    method: "post",
    path: "/alerts/{token}/confirm",
    operationId: "confirmAlert",
    summary: "Confirm an alert (double opt-in; idempotent)",
    description: "Called by the alert's page from script, so that mail scanners that only follow links confirm nothing.",
    ...site,
    request: { params: alertTokenParamsSchema },
    responses: {
      200: { description: "The confirmed alert.", headers: COMMON_HEADERS, content: json },
      400: errorResponse(400, ["invalid_path"]),
      404: notFound,
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/alerts/{token}/unsubscribe",
    operationId: "unsubscribeAlert",
    summary: "One-click unsubscribe (RFC 8058)",
    description:
      "The URL of the emails' `List-Unsubscribe` header. Mail clients POST `List-Unsubscribe=One-Click` (form-encoded) or nothing, without cookies or Origin: the body is not read and no origin check applies. Deletes the alert and whatever it had waiting; an unknown token is answered the same (already unsubscribed).",
    ...site,
    request: { params: alertTokenParamsSchema },
    responses: {
      200: { description: "Unsubscribed.", headers: COMMON_HEADERS, content: { "application/json": { schema: alertUnsubscribedSchema } } },
      400: errorResponse(400, ["invalid_path"]),
      ...commonErrors(),
    },
  });
}
