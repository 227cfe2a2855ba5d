import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { DEPRECATION } from "@/lib/http/headers";
import { IDEMPOTENCY_KEY_MAX } from "@/lib/http/idempotency";
import { COMMON_HEADERS, commonErrors, errorResponse, ETAG, header } from "@/lib/openapi/builders";
import { applicationCreatedSchema, applicationInputSchema } from "@/lib/applications/schemas";
import { listPetsQuerySchema } from "@/lib/pets/schemas/list-query";
import { newPetSchema, petPatchSchema, petSchema, petsSchema, photoSchema } from "@/lib/pets/schemas/pet";
import { petIdParamsSchema, photoParamsSchema, photoPatchSchema, photoAltSchema, photoUploadQuerySchema } from "@/lib/pets/schemas/params";
import { PHOTOS_MAX } from "@/lib/pets/schemas/fields";
import { MAX_UPLOAD_BYTES, MAX_PHOTO_PIXELS, PHOTO_FORMATS, PHOTO_MEDIA_TYPES } from "@/lib/photos/limits";

// The animals in the contract: the list and its filters, creating and
// changing an animal, the deprecated look-up by id, its photos, and applying
// to adopt it. Registered first by buildOpenApiDocument (lib/openapi/document.ts),
// so the document keeps the order it always had.

/** The photo form as the document states it (built once: a component's id is registered once). */
const photoUploadFormSchema = z
  .object({
    file: z
      .string()
      .meta({ type: "string", format: "binary", contentMediaType: "application/octet-stream", description: `The photo: ${PHOTO_FORMATS.join(", ")}.` }),
    alt: photoAltSchema.optional(),
  })
  .meta({ id: "PhotoUpload", description: "A photo and its alt text (the image as the body itself takes `?alt=` instead)." });

const DEPRECATION_HEADERS = {
  Deprecation: header("RFC 9745: this operation is deprecated (since the given unix time)."),
  Sunset: header(`RFC 8594: the operation is removed at ${DEPRECATION.sunset.toUTCString()}.`),
  Link: header('Points to the replacement, the list filtered by this id: `</v1/pets?id=12>; rel="successor-version"`.'),
};
const REPLAYED = {
  "Idempotent-Replayed": header("`true` when this is the stored response of an earlier request with the same `Idempotency-Key` (no new animal was created)."),
};

/** The pets' paths, in the document's order. */
export function registerPets(registry: OpenAPIRegistry, security: Record<string, string[]>[]): void {
  registry.registerPath({
    method: "get",
    path: "/pets",
    operationId: "listPets",
    summary: "List all animals",
    description:
      'Returns animals newest first, every organisation\'s. Page with `limit` and the opaque `cursor` from the `Link` header (`rel="next"` is present exactly when another page exists; `rel="prev"` when a newer page exists). Filters combine: `status`, `categoryId`, `organizationId` (at these organisations), `id` (these animals only; with one id, the successor of `GET /pets/{petId}`), `q` (name search), `sex`, `size` (any of), `age` (any of the age groups, on the day of the request), `goodWith` (all of), and the listing sites\' `externalId` (the shelters\' own ids), `houseTrained`, `specialNeeds`, `spayedNeutered` (true or false; an answer not known matches neither) and `coatLength` (any of). With `near` (a US ZIP code or `latitude,longitude`) and `within` (default 100km), only animals at organisations that close, nearest first (newest first at one distance), each with `distanceKm`; the cursors continue in that order.',
    tags: ["pets"],
    security,
    request: {
      query: listPetsQuerySchema,
      headers: z.object({
        "If-None-Match": z.string().optional().meta({
          description:
            "The `ETag` of this page as you last read it: when nothing on it changed, the answer is `304` without a body (it still counts against the rate limit).",
          example: 'W/"Yq3Xk2a9Xw0bV1c8s7dQe4f5gH6iJ7k"',
        }),
      }),
    },
    responses: {
      200: {
        description: "A page of animals.",
        headers: {
          ...COMMON_HEADERS,
          Link: header('RFC 8288 links to neighbouring pages: `<…?cursor=…>; rel="next"`.'),
          ETag: header(
            "A weak tag of this page: it changes when any animal on it changes (or leaves or joins it), and on the day ages move on. Send it back in `If-None-Match`.",
          ),
        },
        content: { "application/json": { schema: petsSchema } },
      },
      304: {
        description: "Not modified: the page is as the `If-None-Match` tag says. No body.",
        headers: { ...COMMON_HEADERS, ETag: header("The page's tag."), Link: header("As on the 200.") },
      },
      400: errorResponse(400, ["invalid_query", "invalid_cursor", "unknown_location"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/pets",
    operationId: "createPet",
    summary: "Add an animal",
    tags: ["pets"],
    security,
    description:
      "The animal joins the key's organisation (`organizationId` may be left out; naming another is 403); a platform key names the organisation in `organizationId`. Send an `Idempotency-Key` to make retries safe: the same key with the same body, from the same caller within 24 hours, answers the first response again (with `Idempotent-Replayed: true`) instead of adding a second animal.",
    request: {
      headers: z.object({
        "Idempotency-Key": z
          .string()
          .min(1)
          .max(IDEMPOTENCY_KEY_MAX)
          .regex(/^[\x20-\x7E]+$/)
          .optional()
          .meta({
            description: `A unique value per animal to add (a UUID, say): 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters. Kept 24 hours, per caller.`,
            example: "3f0c9a52-6c1e-4b7e-9d1a-0d4c1f2b7e11",
          }),
      }),
      body: { required: true, content: { "application/json": { schema: newPetSchema } } },
    },
    responses: {
      201: {
        description: "Animal added (or, with `Idempotent-Replayed: true`, the answer of the earlier request with this `Idempotency-Key`).",
        headers: { ...COMMON_HEADERS, Location: header("URL of the new animal."), ...ETAG, ...REPLAYED },
        content: { "application/json": { schema: petSchema } },
      },
      400: errorResponse(400, ["invalid_json", "invalid_body", "unknown_category", "unknown_organization", "invalid_header"]),
      409: errorResponse(
        409,
        ["idempotency_in_progress", "external_id_taken", "no_open_stay", "foster_not_active", "foster_in_blackout", "foster_species", "foster_full"],
        {},
        "`idempotency_in_progress`: a request with the same `Idempotency-Key` is still being processed; retry after `Retry-After` seconds to get its response. `external_id_taken`: another animal of the organisation already has this `externalId` (the message names it); nothing was added. `foster_*` / `no_open_stay`: the foster of `intake.fosterId` cannot take the animal (or a sold animal has no open stay to be placed in); nothing was added.",
      ),
      404: errorResponse(404, ["not_found"], {}, "`intake.fosterId` names no person of the animal's organisation; nothing was added."),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      422: errorResponse(422, ["idempotency_key_reused"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/pets/{petId}",
    operationId: "getPet",
    summary: "Get an animal (deprecated)",
    description: `Deprecated: removed on ${DEPRECATION.sunset.toUTCString()}, after which it answers 410. Use \`GET /pets?id={petId}\` instead (an array holding the animal, or empty), as the \`Link: rel="successor-version"\` header says.`,
    deprecated: true,
    tags: ["pets"],
    security,
    request: { params: petIdParamsSchema },
    responses: {
      200: {
        description: "Animal found.",
        headers: { ...COMMON_HEADERS, ...DEPRECATION_HEADERS, ...ETAG },
        content: { "application/json": { schema: petSchema } },
      },
      400: errorResponse(400, ["invalid_path"], DEPRECATION_HEADERS),
      404: errorResponse(404, ["not_found"], DEPRECATION_HEADERS),
      410: errorResponse(410, ["gone"], DEPRECATION_HEADERS),
      ...commonErrors(DEPRECATION_HEADERS),
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/pets/{petId}",
    operationId: "updatePet",
    summary: "Change an animal",
    description:
      "A JSON merge patch of the animal's fields (`name`, `categoryId`, `status`, the profile: `sex`, `size`, `birthDate`, `breed`, `description`, `goodWith`, and the listing sites' fields: `externalId`, `secondaryBreed`, `mixedBreed`, `colors`, `coatLength`, `spayedNeutered`, `houseTrained`, `declawed`, `shotsCurrent`, `specialNeeds`, `specialNeedsNotes`, `adoptionFee`, `intakeDate`, `videoUrl`, `tags`, `listOnOtherSites`) and of its photos' order (`photoOrder`): the fields sent are changed, the others kept; `null` makes a profile field unknown (`colors` and `tags` empty). `goodWith` and `adoptionFee` merge: the parts sent change, the others stay. Send `If-Match` with the ETag you read (or the animal's `version` in quotes) so that a change someone else made meanwhile is not overwritten: it then answers 412 with the current `ETag`. A patch that changes nothing answers the animal as it is, with the same version.",
    tags: ["pets"],
    security,
    request: {
      params: petIdParamsSchema,
      headers: z.object({
        "If-Match": z.string().optional().meta({
          description: 'Only change the animal if its ETag is one of these (`"3"`, or `"3", "4"`); `*` for any. Strong comparison: a weak tag never matches.',
          example: '"1"',
        }),
      }),
      body: {
        required: true,
        content: { "application/merge-patch+json": { schema: petPatchSchema }, "application/json": { schema: petPatchSchema } },
      },
    },
    responses: {
      200: {
        description: "Animal changed (or unchanged, when the patch changed nothing).",
        headers: { ...COMMON_HEADERS, ...ETAG },
        content: { "application/json": { schema: petSchema } },
      },
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body", "unknown_category", "invalid_header"]),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(
        409,
        ["adoption_in_progress", "external_id_taken", "stay_ended"],
        {},
        "`adoption_in_progress`: the patch changes `status` while an adoption application for the animal is approved: its status then follows that adoption (completed: sold; cancelled: available). `external_id_taken`: another animal of the organisation already has the `externalId` sent. `stay_ended`: `status: sold` for an animal out of care (its last stay ended other than by adoption): record a new intake first. Nothing was changed.",
      ),
      412: errorResponse(412, ["precondition_failed"]),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  // One documented request body, the form: generators that cannot choose between several media types
  // (orval) otherwise build a call that sends neither. The image as the body itself is still taken
  // (curl --data-binary) and stated in prose and in `x-raw-image-body` (docs/decisions/024-photo-upload-contract.md).
  const rawTypes = PHOTO_MEDIA_TYPES.join(", ");
  registry.registerPath({
    method: "post",
    path: "/pets/{petId}/photos",
    operationId: "addPetPhoto",
    summary: "Add a photo",
    description: `Send a ${PHOTO_FORMATS.join(", ").replace(/, ([^,]*)$/, " or $1")} photo as the \`file\` field of a \`multipart/form-data\` form, with an optional \`alt\` field. The image may also be sent as the request body itself, with its own \`Content-Type\` (${rawTypes}, or \`application/octet-stream\`) and \`?alt=\` (see \`x-raw-image-body\`): \`curl --data-binary @rex.jpg -H 'Content-Type: image/jpeg'\`. What the file is gets decided by decoding it, never by its name or declared type. It is oriented by its EXIF data, stripped of all metadata (GPS positions included), and resized once to WebP at about 320, 640 and 1280 pixels wide (never enlarged). At most ${PHOTOS_MAX} photos per animal; the first is the cover (reorder with \`PATCH /pets/{petId}\` and \`photoOrder\`). The animal's version increases (\`ETag\`); \`If-Match\` is honoured. Limits: ${MAX_UPLOAD_BYTES / 1024 / 1024} MB, ${MAX_PHOTO_PIXELS / 1_000_000} megapixels.`,
    tags: ["pets"],
    security,
    "x-raw-image-body": {
      description: "The image as the whole request body instead of the form, its alt text in `?alt=`.",
      contentTypes: [...PHOTO_MEDIA_TYPES, "application/octet-stream"],
    },
    request: {
      params: petIdParamsSchema,
      query: photoUploadQuerySchema,
      headers: z.object({ "If-Match": z.string().optional().meta({ description: 'Only if the animal is at this version (`"3"`).', example: '"1"' }) }),
      body: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: photoUploadFormSchema,
            encoding: { file: { contentType: `${rawTypes}, application/octet-stream` } },
          },
        },
      },
    },
    responses: {
      201: {
        description: "The photo, as the animal's `photos` now lists it.",
        headers: { ...COMMON_HEADERS, ...ETAG, Location: header("URL of the photo (for DELETE and PATCH).") },
        content: { "application/json": { schema: photoSchema } },
      },
      400: errorResponse(400, ["invalid_path", "invalid_query", "invalid_body", "invalid_header"]),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(409, ["too_many_photos"], {}, `The animal already has ${PHOTOS_MAX} photos.`),
      412: errorResponse(412, ["precondition_failed"]),
      413: errorResponse(
        413,
        ["payload_too_large"],
        {},
        `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (refused as soon as that many bytes have arrived).`,
      ),
      415: errorResponse(
        415,
        ["unsupported_media_type"],
        {},
        `The body is neither a \`multipart/form-data\` form nor an image (${rawTypes}, \`application/octet-stream\`), or the file is not a ${PHOTO_FORMATS.join(", ")} image (decided by decoding it). The message names the content type received and the ones accepted.`,
      ),
      422: errorResponse(
        422,
        ["image_too_large"],
        {},
        `The image has more than ${MAX_PHOTO_PIXELS / 1_000_000} megapixels (refused before its pixels are decoded), or needs more memory to process than the server allows for one photo.`,
      ),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "patch",
    path: "/pets/{petId}/photos/{photoId}",
    operationId: "updatePetPhoto",
    summary: "Change a photo's alt text",
    tags: ["pets"],
    security,
    request: {
      params: photoParamsSchema,
      headers: z.object({ "If-Match": z.string().optional().meta({ description: 'Only if the animal is at this version (`"3"`).', example: '"2"' }) }),
      body: { required: true, content: { "application/json": { schema: photoPatchSchema }, "application/merge-patch+json": { schema: photoPatchSchema } } },
    },
    responses: {
      200: { description: "The photo.", headers: { ...COMMON_HEADERS, ...ETAG }, content: { "application/json": { schema: photoSchema } } },
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body", "invalid_header"]),
      404: errorResponse(404, ["not_found"]),
      412: errorResponse(412, ["precondition_failed"]),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/pets/{petId}/photos/{photoId}",
    operationId: "deletePetPhoto",
    summary: "Delete a photo",
    description: "Removes the photo and its files (the next photo becomes the cover if this was it). The animal's version increases; `If-Match` is honoured.",
    tags: ["pets"],
    security,
    request: {
      params: photoParamsSchema,
      headers: z.object({ "If-Match": z.string().optional().meta({ description: 'Only if the animal is at this version (`"3"`).', example: '"2"' }) }),
    },
    responses: {
      204: { description: "Deleted.", headers: { ...COMMON_HEADERS, ...ETAG } },
      400: errorResponse(400, ["invalid_path", "invalid_header"]),
      404: errorResponse(404, ["not_found"]),
      412: errorResponse(412, ["precondition_failed"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/pets/{petId}/applications",
    operationId: "applyForPet",
    summary: "Forward an application to adopt",
    description:
      "For listing sites and partners forwarding an adopter's application (scope `applications:write`). The adopter must have agreed that the shelter stores these details (`consent: true`). The answer's `statusUrl` is the applicant's private page (status, withdraw): give it to the applicant only. Applications are personal data: no key can read them back, and the change feed and webhooks never carry them. Each applicant's email has an hourly and a daily budget of applications, and so does your key: 100 an hour and 1,000 a day (429 with Retry-After beyond either); your requests are not bounded by your servers' address. The applicant's emails carry nothing they typed (not even the name: nobody has confirmed the address).",
    tags: ["applications"],
    security,
    request: { params: petIdParamsSchema, body: { required: true, content: { "application/json": { schema: applicationInputSchema } } } },
    responses: {
      201: { description: "Received.", headers: COMMON_HEADERS, content: { "application/json": { schema: applicationCreatedSchema } } },
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body"]),
      404: errorResponse(404, ["not_found"]),
      409: errorResponse(
        409,
        ["not_available", "already_applied"],
        {},
        "The animal is pending or sold (`not_available`), or this email already has an open application for it (`already_applied`).",
      ),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });
}
