import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";
import { listPeopleQuerySchema, newPersonSchema, peopleSchema, personIdParamsSchema, personPatchSchema, personSchema } from "@/lib/people/schemas";

// An organisation's people in the contract (issue 50, docs/decisions/028):
// personal data (fosters' names, contacts and homes), read and changed only
// by the organisation's staff and its keys with people:read / people:write
// (a platform key with them: any organisation's). Called from
// buildOpenApiDocument (nothing runs at import).

const WHO =
  "Only the organisation's own staff and its keys with the scope, or a platform key with it; every route also needs `people:read`, since each answer is a person. Another organisation's caller is refused (403), a key without `people:read` too.";

const etag = () => ({ ETag: header('The person\'s version as a strong entity tag (`"3"`). Send it back in `If-Match`.') });
const noStore = () => ({ "Cache-Control": header("`private, no-store`: personal data is never kept by a cache.") });

const personExample = {
  id: 7,
  organizationId: 1,
  name: "Robin Fields",
  email: "robin@example.org",
  phone: "+1 312 555 0142",
  address: { street: "1 N State St", city: "Chicago", region: "IL", postcode: "60602", country: "US" },
  notes: "Has a fenced yard; no cats.",
  foster: {
    status: "active",
    capacity: 2,
    species: ["dog"],
    blackouts: [{ from: "2026-12-24", to: "2027-01-02" }],
    placedCount: 1,
    room: 1,
  },
  erased: false,
  createdAt: "2026-12-01T09:30:00.000Z",
  updatedAt: "2026-12-02T16:05:00.000Z",
};

export function registerPeople(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/people",
    operationId: "listPeople",
    summary: "List the organisation's people",
    description: `In name order (ignoring case), then by id; erased people are left out (GET one by id still answers them). Filters: \`role=foster\`, \`status\` (foster statuses, comma-separated), \`species\` (fosters who take it, or any), \`hasRoom=true\` (active fosters with room, the day \`on\`, default today in the organisation's time zone, in none of their blackouts; \`false\`: the other fosters), \`q\` (name or email contains, ignoring case). Paged as every list is: \`limit\` and the opaque \`cursor\` of the \`Link\` header. Scope \`people:read\`. ${WHO}`,
    tags: ["people"],
    security,
    request: { params: organizationIdParamsSchema, query: listPeopleQuerySchema },
    responses: {
      200: {
        description: "A page of people.",
        headers: { ...COMMON_HEADERS, ...noStore(), Link: header('RFC 8288 links to neighbouring pages: `<…?cursor=…>; rel="next"`, `rel="prev"`.') },
        content: { "application/json": { schema: peopleSchema, example: [personExample] } },
      },
      400: errorResponse(400, ["invalid_path", "invalid_query", "invalid_cursor"]),
      404: errorResponse(404, ["not_found"], {}, "There is no such organisation."),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/organizations/{organizationId}/people",
    operationId: "createPerson",
    summary: "Add a person",
    description: `A person of the organisation, a foster when \`foster\` is given. \`email\` is unique within the organisation, whatever its case (409 \`person_exists\` names the person who has it). A US home's \`address.postcode\` must be a US ZIP code (400 \`unknown_location\` otherwise): it places the home at the ZIP code's centre. Scope \`people:write\`. ${WHO}`,
    tags: ["people"],
    security,
    request: {
      params: organizationIdParamsSchema,
      body: {
        required: true,
        content: {
          "application/json": {
            schema: newPersonSchema,
            example: {
              name: "Robin Fields",
              email: "robin@example.org",
              address: { city: "Chicago", postcode: "60602", country: "US" },
              foster: { status: "active", capacity: 2, species: ["dog"] },
            },
          },
        },
      },
    },
    responses: {
      201: {
        description: "The person.",
        headers: { ...COMMON_HEADERS, ...etag(), ...noStore(), Location: header("URL of the person.") },
        content: { "application/json": { schema: personSchema, example: personExample } },
      },
      400: errorResponse(
        400,
        ["invalid_path", "invalid_json", "invalid_body", "unknown_location"],
        {},
        "The body is invalid (`details` names each field: a capacity outside 1 to 50, a blackout ending before it starts, an unknown field…), or a US postcode is no ZIP code (`unknown_location`, naming `address.postcode`).",
      ),
      404: errorResponse(404, ["not_found"], {}, "There is no such organisation."),
      409: errorResponse(409, ["person_exists"], {}, "The organisation already has a person with this email (any case): the message names them (id and name)."),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/people/{personId}",
    operationId: "getPerson",
    summary: "Get a person",
    description: `One person of the organisation, with their foster role's \`placedCount\` and \`room\`. An erased person answers with \`erased: true\` and every personal field null (their placements still name them, as a former foster). A person of another organisation is as absent as one that never was (404). Scope \`people:read\`. ${WHO}`,
    tags: ["people"],
    security,
    request: { params: personIdParamsSchema },
    responses: {
      200: {
        description: "The person.",
        headers: { ...COMMON_HEADERS, ...etag(), ...noStore() },
        content: { "application/json": { schema: personSchema, example: personExample } },
      },
      400: errorResponse(400, ["invalid_path"]),
      404: errorResponse(404, ["not_found"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/organizations/{organizationId}/people/{personId}",
    operationId: "updatePerson",
    summary: "Change a person",
    description: `A JSON merge patch, as an animal's: the fields sent change, the others keep their values. \`address\` and \`foster\` merge field by field (\`{"foster": {"status": "paused"}}\` changes only the status; \`species\` and \`blackouts\` are replaced whole); \`null\` removes the address, the foster role (\`"foster": null\`) or a field that may be unknown. Send \`If-Match\` with the ETag you read: a change someone made meanwhile answers 412 with the current \`ETag\`. A patch that changes nothing answers the person as they are. Scope \`people:write\`. ${WHO}`,
    tags: ["people"],
    security,
    request: {
      params: personIdParamsSchema,
      headers: z.object({
        "If-Match": z.string().optional().meta({ description: 'Only change the person if their ETag is one of these (`"3"`); `*` for any.', example: '"1"' }),
      }),
      body: {
        required: true,
        content: {
          "application/merge-patch+json": { schema: personPatchSchema, example: { foster: { status: "paused" } } },
          "application/json": { schema: personPatchSchema },
        },
      },
    },
    responses: {
      200: {
        description: "The person, changed.",
        headers: { ...COMMON_HEADERS, ...etag(), ...noStore() },
        content: { "application/json": { schema: personSchema } },
      },
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body", "invalid_header", "unknown_location"]),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(
        409,
        ["person_exists", "person_erased"],
        {},
        "Another person of the organisation has the email sent (`person_exists`, naming them), or the person was erased (`person_erased`).",
      ),
      412: errorResponse(
        412,
        ["precondition_failed"],
        {},
        "`If-Match` does not match the person's version: someone changed them since you read them. The `ETag` header gives the current one.",
      ),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/organizations/{organizationId}/people/{personId}",
    operationId: "erasePerson",
    summary: "Erase a person",
    description: `Erases the person: name, email, phone, address, notes and the foster role are cleared for good, and so are their private foster link, their foster applications' messages and the words of their notes about animals; the record stays (\`erased: true\`) so that their placements still say "a former foster". Refused (409 \`person_has_animals\`) while an animal is placed with them. Erasing an erased person again is 204 as well. Scope \`people:write\`. ${WHO}`,
    tags: ["people"],
    security,
    request: { params: personIdParamsSchema },
    responses: {
      204: { description: "Erased.", headers: COMMON_HEADERS },
      400: errorResponse(400, ["invalid_path"]),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(409, ["person_has_animals"], {}, "An animal is placed with the person: end the placement first (the message says how many)."),
      ...commonErrors(),
    },
  });
}
