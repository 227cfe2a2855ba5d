import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";
import {
  listStaysQuerySchema,
  newStaySchema,
  outcomeInputSchema,
  STAYS_PER_ANIMAL_MAX,
  stayParamsSchema,
  stayPatchSchema,
  staySchema,
  staysSchema,
} from "@/lib/stays/schemas";

// An animal's stays in the contract (issue 42, docs/decisions/023): the
// shelter's records of how each animal came in and how it left, for its
// organisation's staff and keys with records:read / records:write. Called
// from buildOpenApiDocument (module cycle: nothing runs at import).

const etag = () => ({
  ETag: header('The animal\'s version after the change, as a strong entity tag (`"4"`): every change of its stays is a change of the animal.'),
});
const ifMatch = () =>
  z.object({ "If-Match": z.string().optional().meta({ description: 'Only if the animal is at this version (`"3"`); 412 otherwise.', example: '"3"' }) });
const OWNERS =
  "Only the animal's own organisation: its staff, and its keys with the scope; a platform key or admin for any. Another organisation's caller is refused (403) as for every private resource.";

export function registerStays(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  registry.registerPath({
    method: "get",
    path: "/pets/{petId}/stays",
    operationId: "listStays",
    summary: "An animal's stays",
    description: `The stays of the animal at its shelter, oldest first: its intake (\`at\`, \`type\`, \`subtype\`) and, once it ended, its outcome. Paged as every list is: \`limit\` (default 20, at most 100) and the opaque \`cursor\` from the \`Link\` header (\`rel="next"\` is present exactly when later stays exist; \`rel="prev"\` when earlier ones do). The latest stay, the one open while the animal is in care, is on the last page. Scope \`records:read\`. ${OWNERS} Animals out of care (their last stay ended other than by adoption) are read here and by staff, never on public lists.`,
    tags: ["stays"],
    security,
    request: { params: petIdParamsSchema, query: listStaysQuerySchema },
    responses: {
      200: {
        description: "A page of the stays, oldest first.",
        headers: { ...COMMON_HEADERS, Link: header('RFC 8288 links to neighbouring pages: `<…?cursor=…>; rel="next"`, `rel="prev"`.') },
        content: { "application/json": { schema: staysSchema } },
      },
      400: errorResponse(400, ["invalid_path", "invalid_query", "invalid_cursor"]),
      404: errorResponse(404, ["not_found"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/pets/{petId}/stays",
    operationId: "createStay",
    summary: "Record a new intake",
    description: `Opens a stay: the animal is back in care and \`available\` (a return after an adoption is \`relinquishedByOwner\`). \`at\` is an RFC 3339 time or a date (midnight of that day in the organisation's \`timeZone\`), now when left out, never in the future, and not inside another stay. An animal keeps at most ${STAYS_PER_ANIMAL_MAX} stays (409 \`too_many_stays\` past them). Scope \`records:write\`. ${OWNERS} Announced as \`pet.stay.started\`.`,
    tags: ["stays"],
    security,
    request: { params: petIdParamsSchema, headers: ifMatch(), body: { required: true, content: { "application/json": { schema: newStaySchema } } } },
    responses: {
      201: {
        description: "The new stay.",
        headers: { ...COMMON_HEADERS, ...etag(), Location: header("URL of the stay.") },
        content: { "application/json": { schema: staySchema } },
      },
      400: errorResponse(
        400,
        ["invalid_path", "invalid_json", "invalid_body"],
        {},
        "The body is invalid, or `intake.at` is in the future (`details` names the field).",
      ),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(
        409,
        ["stay_open", "stay_overlap", "too_many_stays", "adoption_in_progress", "foster_not_active", "foster_in_blackout", "foster_species", "foster_full"],
        {},
        `A stay is still open (\`stay_open\`: record its outcome first), the intake falls inside another stay (\`stay_overlap\`: the message names both stays' dates), the animal has its ${STAYS_PER_ANIMAL_MAX} stays already (\`too_many_stays\`), or the foster of \`intake.fosterId\` cannot take it (nothing is recorded).`,
      ),
      412: errorResponse(412, ["precondition_failed"]),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/pets/{petId}/stays/{stayId}/outcome",
    operationId: "endStay",
    summary: "Record an outcome",
    description: `Ends the stay. \`adoption\` makes the animal \`sold\`; any other outcome takes it out of care: off the public lists and searches, partners' feeds, alerts and the listing sites (gone from their next file), while staff still read it and its stays, and cancels its open and approved applications (each applicant emailed that the animal is no longer available; an animal pending on the approved one is \`available\` again). \`at\` as for an intake, not before the stay's intake. The open placement in a foster home, if any, ends at the same instant as \`stayEnded\` (409 \`placement_outside_stay\` for an outcome before it began). Scope \`records:write\`. ${OWNERS} Announced as \`pet.stay.ended\`.`,
    tags: ["stays"],
    security,
    request: { params: stayParamsSchema, headers: ifMatch(), body: { required: true, content: { "application/json": { schema: outcomeInputSchema } } } },
    responses: {
      200: { description: "The stay, ended.", headers: { ...COMMON_HEADERS, ...etag() }, content: { "application/json": { schema: staySchema } } },
      400: errorResponse(
        400,
        ["invalid_path", "invalid_json", "invalid_body"],
        {},
        "The body is invalid, `at` is in the future, or before the intake (the message names both dates).",
      ),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(
        409,
        ["stay_ended", "adoption_in_progress", "placement_outside_stay"],
        {},
        "The stay has already ended (`stay_ended`: correct it with PATCH instead), an adoption is approved and its application decides the animal's status, or the outcome is before the open placement began (`placement_outside_stay`).",
      ),
      412: errorResponse(412, ["precondition_failed"]),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/pets/{petId}/stays/{stayId}",
    operationId: "correctStay",
    summary: "Correct a stay",
    description: `Corrects a date, type or subtype of the stay's intake or outcome; the others keep their values. The stay must keep its shape: not overlapping another (409 \`stay_overlap\`) and its outcome not before its intake (400), each answer naming both dates. Correcting the last stay's outcome type changes the animal with it (adoption: \`sold\`; another outcome: out of care, its open and approved applications cancelled), and so does a correction of dates that changes which stay is the latest: the animal follows its latest stay. A stay of no length stands at another's start or end, never inside it or after the open stay. Scope \`records:write\`. ${OWNERS} Announced as \`pet.updated\` with \`data.stay\`.`,
    tags: ["stays"],
    security,
    request: { params: stayParamsSchema, headers: ifMatch(), body: { required: true, content: { "application/json": { schema: stayPatchSchema } } } },
    responses: {
      200: { description: "The stay, corrected.", headers: { ...COMMON_HEADERS, ...etag() }, content: { "application/json": { schema: staySchema } } },
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body"]),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(
        409,
        ["stay_open", "stay_overlap", "adoption_in_progress", "placement_outside_stay"],
        {},
        "An outcome was corrected on a stay that has none (`stay_open`), the new dates meet another stay (`stay_overlap`, both named), or they would leave a placement in a foster home outside the stay (`placement_outside_stay`).",
      ),
      412: errorResponse(412, ["precondition_failed"]),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });
}
