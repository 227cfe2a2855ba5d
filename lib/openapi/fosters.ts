import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";
import {
  fosterApplicantSchema,
  fosterApplicantsSchema,
  fosterApplicationReceivedSchema,
  fosterDeclineSchema,
  listFosterApplicantsQuerySchema,
  newFosterApplicationSchema,
} from "@/lib/fosters/applications-schemas";
import {
  FOSTER_LINK_DAYS,
  fosterLinkSentSchema,
  fosterNoteCreatedSchema,
  fosterPageSchema,
  fosterPreferencesPatchSchema,
  fosterTokenParamsSchema,
  fosterViewSchema,
  newFosterNoteSchema,
  personIdParamsSchema,
} from "@/lib/fosters/links-schemas";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";

// Fosters in the contract (docs/api.md, "The foster's page and foster
// applications"): applying to foster (scope applications:write, as applying
// to adopt), staff's inbox and decisions and the foster's link (people:read,
// people:write); in the site document, the foster's private page (the token
// is the credential, no key).

export function registerFosters(registry: OpenAPIRegistry, security: Record<string, string[]>[], audience: "partner" | "site"): void {
  const json = <S extends z.ZodType>(schema: S) => ({ "application/json": { schema } });
  const ok = <S extends z.ZodType>(description: string, schema: S) => ({ description, headers: COMMON_HEADERS, content: json(schema) });
  const tags = ["fosters"];
  const noPerson = errorResponse(404, ["not_found"], {}, "No such organisation, or no such person in it.");

  registry.registerPath({
    method: "post",
    path: "/organizations/{organizationId}/foster-applications",
    operationId: "applyToFoster",
    summary: "Apply to foster animals for an organisation",
    description:
      "The shelter's page's form, or a partner forwarding it. The person becomes a foster with the status `applicant` (a new person, or one of the organisation's people with no foster role), and a confirmation email goes to `email` in `locale`. The answer is the same whatever the organisation already knew of the address: a person already a foster (or already applying) is changed in nothing, and only the email to that address says so. The budgets of adoption applications hold, on counters of their own (429 with Retry-After); `website` is a honeypot; a US ZIP code places the home at the ZIP code's centre (an unknown one is 400 `unknown_location`). Scope `applications:write` (as applying to adopt); the shelter's page sends it from the adopter's anonymous session.",
    tags,
    security,
    request: { params: organizationIdParamsSchema, body: { required: true, content: json(newFosterApplicationSchema) } },
    responses: {
      202: ok("Received: an email to the address says what happens next.", fosterApplicationReceivedSchema),
      400: errorResponse(400, ["invalid_json", "invalid_body", "invalid_path", "unknown_location"]),
      404: errorResponse(404, ["not_found"], {}, "No such organisation."),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/foster-applications",
    operationId: "listFosterApplicants",
    summary: "The foster applicants waiting for a decision, with what they sent (scope people:read)",
    description:
      "Applicants waiting for a decision, newest first. Paged as every list is: `limit` (default 20) and the opaque `cursor` of the `Link` header (`next`, `prev`). Personal data: only the organisation's staff and its keys with `people:read`.",
    tags,
    security,
    request: { params: organizationIdParamsSchema, query: listFosterApplicantsQuerySchema },
    responses: {
      200: {
        description: "The applicants.",
        headers: {
          ...COMMON_HEADERS,
          "Cache-Control": header("`private, no-store`: personal data is never kept by a cache."),
          Link: header('RFC 8288 links to neighbouring pages: `<…?cursor=…>; rel="next"`, `rel="prev"`.'),
        },
        content: json(fosterApplicantsSchema),
      },
      400: errorResponse(400, ["invalid_query", "invalid_path"]),
      404: errorResponse(404, ["not_found"], {}, "No such organisation."),
      ...commonErrors(),
    },
  });
  const DECIDERS =
    "Scope `people:write`, and `people:read` as every people route (the answer is the applicant's personal data): the organisation's staff and its keys with both. Decided once: a second decision is 409 `invalid_transition`.";
  for (const [step, summary, description, body] of [
    [
      "approve",
      "Approve a foster applicant: an active foster, welcomed by email with their private page's link",
      `The person's foster status becomes \`active\` (they can be placed with from now on) and a welcome email in their language carries a new private link (the one sent before, if any, stops working). ${DECIDERS}`,
      undefined,
    ],
    [
      "decline",
      "Decline a foster applicant: the person becomes inactive and is emailed the message; what they sent stays for staff",
      `The person's foster status becomes \`inactive\`; an email tells them, with \`message\` when given. Their application stays in the organisation's records for staff. ${DECIDERS}`,
      fosterDeclineSchema,
    ],
  ] as const) {
    registry.registerPath({
      method: "post",
      path: `/organizations/{organizationId}/foster-applications/{personId}/${step}`,
      operationId: step === "approve" ? "approveFosterApplicant" : "declineFosterApplicant",
      summary,
      description,
      tags,
      security,
      request: { params: personIdParamsSchema, ...(body ? { body: { required: true, content: json(body) } } : {}) },
      responses: {
        200: ok("Decided.", fosterApplicantSchema),
        400: errorResponse(400, body ? ["invalid_json", "invalid_body", "invalid_path"] : ["invalid_path"]),
        404: noPerson,
        409: errorResponse(409, ["invalid_transition"], {}, "The person is not a foster applicant now (already decided)."),
        ...commonErrors(),
      },
    });
  }
  registry.registerPath({
    method: "post",
    path: "/organizations/{organizationId}/people/{personId}/link",
    operationId: "sendFosterLink",
    summary: "Email an active or paused foster their private page's link (scope people:write)",
    description: `A new link each time: the one sent before stops working at once. Only the token's SHA-256 is stored; the link works for ${FOSTER_LINK_DAYS} days, in the person's language (the page they applied from), English when not known. Scope \`people:write\`, and \`people:read\` as every people route.`,
    tags,
    security,
    request: { params: personIdParamsSchema },
    responses: {
      202: ok("The email is queued.", fosterLinkSentSchema),
      400: errorResponse(400, ["invalid_path"]),
      404: noPerson,
      409: errorResponse(409, ["not_a_foster"], {}, "The person is not an active or paused foster, or has no email address."),
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/people/{personId}/foster-page",
    operationId: "getFosterPage",
    summary: 'What a foster said on their private page: notes about their animals, "ready for another", the link\'s state (scope people:read)',
    tags,
    security,
    request: { params: personIdParamsSchema },
    responses: {
      200: ok("The foster's page, as staff see it.", fosterPageSchema),
      400: errorResponse(400, ["invalid_path"]),
      404: noPerson,
      ...commonErrors(),
    },
  });
  if (audience !== "site") return;

  const site = { tags: ["site"], security: [] };
  const gone = {
    404: errorResponse(404, ["not_found"], {}, "No foster page at this link (mistyped, or replaced by a newer link)."),
    410: errorResponse(410, ["link_expired"], {}, "The link has expired, or its person is no longer an active or paused foster."),
  };
  registry.registerPath({
    method: "get",
    path: "/foster-links/{token}",
    operationId: "getFosterView",
    summary: "The foster's own page, by its private link: their animals now, their capacity, species and blackout days",
    ...site,
    request: { params: fosterTokenParamsSchema },
    responses: { 200: ok("The foster's page.", fosterViewSchema), 400: errorResponse(400, ["invalid_path"]), ...gone, ...commonErrors() },
  });
  registry.registerPath({
    method: "patch",
    path: "/foster-links/{token}",
    operationId: "updateFosterPreferences",
    summary: "The foster changes their capacity, species or blackout days",
    ...site,
    request: { params: fosterTokenParamsSchema, body: { required: true, content: json(fosterPreferencesPatchSchema) } },
    responses: { 200: ok("Changed.", fosterViewSchema), 400: errorResponse(400, ["invalid_json", "invalid_body", "invalid_path"]), ...gone, ...commonErrors() },
  });
  registry.registerPath({
    method: "post",
    path: "/foster-links/{token}/notes",
    operationId: "addFosterNote",
    summary: "A note about one of the foster's animals, for staff (who are emailed that there is one)",
    ...site,
    request: { params: fosterTokenParamsSchema, body: { required: true, content: json(newFosterNoteSchema) } },
    responses: {
      201: ok("Kept for staff.", fosterNoteCreatedSchema),
      400: errorResponse(400, ["invalid_json", "invalid_body", "invalid_path"]),
      ...gone,
      ...commonErrors(),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/foster-links/{token}/ready",
    operationId: "markFosterReady",
    summary: '"Ready for another": the time staff see',
    ...site,
    request: { params: fosterTokenParamsSchema },
    responses: { 200: ok("Said.", fosterViewSchema), 400: errorResponse(400, ["invalid_path"]), ...gone, ...commonErrors() },
  });
}
