import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import { organizationIdParamsSchema } from "@/lib/organizations/schemas";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";
import {
  custodyListSchema,
  custodyQuerySchema,
  endPlacementSchema,
  listPlacementsQuerySchema,
  newPlacementSchema,
  placementParamsSchema,
  placementPatchSchema,
  placementSchema,
  placementsSchema,
} from "@/lib/placements/schemas";

// Where each animal lives in the contract (issue 50, docs/decisions/028): its
// placements in foster homes, for its organisation's staff and keys with
// records:read / records:write, and the staff's custody list. Called from
// buildOpenApiDocument (module cycle: nothing runs at import).

const etag = () => ({
  ETag: header('The animal\'s version after the change, as a strong entity tag (`"4"`): every change of its placements is a change of the animal.'),
});
const ifMatch = () =>
  z.object({ "If-Match": z.string().optional().meta({ description: 'Only if the animal is at this version (`"3"`); 412 otherwise.', example: '"3"' }) });
const OWNERS =
  "Only the animal's own organisation: its staff, and its keys with the scope; a platform key or admin for any. Another organisation's caller is refused (403) as for every private resource.";
const ANNOUNCED = "Announced as the animal's `pet.updated` (to every reader alike: its data carries no placement and never a person's name or contact).";
const WRITE_ERRORS = {
  412: errorResponse(412, ["precondition_failed"]),
  413: errorResponse(413, ["payload_too_large"]),
  415: errorResponse(415, ["unsupported_media_type"]),
  ...commonErrors(),
};

export function registerPlacements(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  registry.registerPath({
    method: "get",
    path: "/pets/{petId}/placements",
    operationId: "listPlacements",
    summary: "An animal's placements in foster homes",
    description: `The animal's placements, oldest first (by start): with which foster (by person id), from when to when, and why each ended. Paged as the stays are: \`limit\` (default 20, at most 100) and the opaque \`cursor\` from the \`Link\` header. Scope \`records:read\`. ${OWNERS}`,
    tags: ["placements"],
    security,
    request: { params: petIdParamsSchema, query: listPlacementsQuerySchema },
    responses: {
      200: {
        description: "A page of the placements, oldest first.",
        headers: { ...COMMON_HEADERS, Link: header('RFC 8288 links to neighbouring pages: `<…?cursor=…>; rel="next"`, `rel="prev"`.') },
        content: { "application/json": { schema: placementsSchema } },
      },
      400: errorResponse(400, ["invalid_path", "invalid_query", "invalid_cursor"]),
      404: errorResponse(404, ["not_found"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/pets/{petId}/placements",
    operationId: "createPlacement",
    summary: "Place an animal in a foster home",
    description: `The animal goes to the foster \`personId\` from \`at\`, inside its open stay. With another foster now, it moves: the open placement ends (\`movedToAnotherFoster\`) and this one starts at the same instant, in one change. The foster must be a person of the animal's organisation (404 otherwise, and for an erased one) with an active foster role (409 \`foster_not_active\`, saying its status), not in one of their blackouts on the day (409 \`foster_in_blackout\`, naming it), taking the animal's species when they named some (409 \`foster_species\`: \`dog\`, \`cat\` or \`other\` by its category; no override, change their species first), with room (409 \`foster_full\`, saying the capacity and how many are placed). Staff may place past the capacity with \`overrideCapacity: true\` (recorded as \`capacityOverridden\` and in the audit record); a key gets 403 for it. Concurrent placements with one foster are counted one after the other: they cannot overfill a home. Scope \`records:write\`. ${OWNERS} ${ANNOUNCED}`,
    tags: ["placements"],
    security,
    request: { params: petIdParamsSchema, headers: ifMatch(), body: { required: true, content: { "application/json": { schema: newPlacementSchema } } } },
    responses: {
      201: {
        description: "The new placement.",
        headers: { ...COMMON_HEADERS, ...etag(), Location: header("URL of the placement.") },
        content: { "application/json": { schema: placementSchema } },
      },
      400: errorResponse(
        400,
        ["invalid_path", "invalid_json", "invalid_body"],
        {},
        "The body is invalid, or `at` is in the future (`details` names the field).",
      ),
      404: errorResponse(404, ["not_found"], {}, "No such animal, or no such person in the animal's organisation."),
      409: errorResponse(
        409,
        [
          "no_open_stay",
          "foster_not_active",
          "foster_in_blackout",
          "foster_species",
          "foster_full",
          "placement_open",
          "placement_overlap",
          "placement_outside_stay",
        ],
        {},
        "The animal is not in care (`no_open_stay`), the foster cannot take it (`foster_not_active`, `foster_in_blackout`, `foster_species`, `foster_full`), it is with this foster already (`placement_open`), or `at` is before its open placement's start or its stay's intake.",
      ),
      ...WRITE_ERRORS,
      403: errorResponse(403, ["forbidden"], {}, "Another organisation's animal, or `overrideCapacity` sent by an API key."),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/pets/{petId}/placements/{placementId}/end",
    operationId: "endPlacement",
    summary: "End a placement",
    description: `The animal comes back from its foster home at \`at\` (now when left out; not before the placement's start), for \`reason\`. An outcome of the stay (recorded, a sale, an adoption completed, an import) ends the open placement by itself at the same instant, as \`stayEnded\`. Scope \`records:write\`. ${OWNERS} ${ANNOUNCED}`,
    tags: ["placements"],
    security,
    request: {
      params: placementParamsSchema,
      headers: ifMatch(),
      body: { required: true, content: { "application/json": { schema: endPlacementSchema } } },
    },
    responses: {
      200: { description: "The placement, ended.", headers: { ...COMMON_HEADERS, ...etag() }, content: { "application/json": { schema: placementSchema } } },
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body"], {}, "The body is invalid, or `at` is in the future or before the start."),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(409, ["placement_ended"], {}, "The placement has already ended (correct it with PATCH)."),
      ...WRITE_ERRORS,
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/pets/{petId}/placements/{placementId}",
    operationId: "correctPlacement",
    summary: "Correct a placement",
    description: `Corrects the placement's start, end (an ended one's only), expected end or note. It must stay inside its stay (409 \`placement_outside_stay\`) and overlap no other placement of the animal (409 \`placement_overlap\`, naming it). A stay's correction that would leave a placement outside it is refused the same way. Scope \`records:write\`. ${OWNERS} ${ANNOUNCED}`,
    tags: ["placements"],
    security,
    request: {
      params: placementParamsSchema,
      headers: ifMatch(),
      body: { required: true, content: { "application/json": { schema: placementPatchSchema } } },
    },
    responses: {
      200: {
        description: "The placement, corrected.",
        headers: { ...COMMON_HEADERS, ...etag() },
        content: { "application/json": { schema: placementSchema } },
      },
      400: errorResponse(
        400,
        ["invalid_path", "invalid_json", "invalid_body"],
        {},
        "The body is invalid, a date is in the future, or the end is before the start.",
      ),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(
        409,
        ["placement_open", "placement_overlap", "placement_outside_stay"],
        {},
        "An end was corrected on an open placement (`placement_open`: end it with POST …/end), or the new dates meet another placement or leave the stay.",
      ),
      ...WRITE_ERRORS,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/organizations/{organizationId}/custody",
    operationId: "listCustody",
    summary: "Where each animal in care is",
    description:
      "The organisation's animals in care (an open stay), by id, each at the shelter or in a foster home: which placement, since when, the expected end and whether it is past (`overdue`: before today in the organisation's time zone). `personName` only for readers of the organisation's people (`people:read`: its staff, keys given it); null for others. Filters: `where`, `personId`, `overdue`. Paged by `limit` and the `Link` header's cursors. Scope `records:read`: the organisation's staff and keys, a platform key or admin for any.",
    tags: ["placements"],
    security,
    request: { params: organizationIdParamsSchema, query: custodyQuerySchema },
    responses: {
      200: {
        description: "A page of the animals in care and where each is.",
        headers: { ...COMMON_HEADERS, Link: header('RFC 8288 links to neighbouring pages: `<…?cursor=…>; rel="next"`, `rel="prev"`.') },
        content: { "application/json": { schema: custodyListSchema } },
      },
      400: errorResponse(400, ["invalid_path", "invalid_query", "invalid_cursor"]),
      404: errorResponse(404, ["not_found"]),
      ...commonErrors(),
    },
  });
}
