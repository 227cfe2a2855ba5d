import { z } from "zod";
import { PlacementEndReason } from "@/lib/generated/prisma/enums";
import { idSchema, LIMIT_DEFAULT, LIMIT_MAX, queryInteger } from "@/lib/core/schemas";
import { stayTimeSchema } from "@/lib/stays/schemas";

// Where each animal lives inside its stay (issue 50, docs/decisions/028): the
// shapes the placements API takes and answers, in one place for the handlers,
// the OpenAPI document and the custody list. A placement names its foster by
// id only: a person's name and home are personal data, read through the
// people's own routes (lib/visibility/policy.ts peopleOf).

export const PLACEMENT_END_REASONS = Object.values(PlacementEndReason) as [PlacementEndReason, ...PlacementEndReason[]];
export type { PlacementEndReason };

/** The reasons a caller may end a placement with: `stayEnded` is set only by an outcome. */
const ENDED_BY_HAND = ["returnedToShelter", "movedToAnotherFoster", "other"] as const;

export const NOTE_MAX = 500;

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const realDay = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && s >= "1900-01-01";
};

const expectedEndOnSchema = z
  .string({ error: () => "must be a date (YYYY-MM-DD) or null" })
  .regex(DAY, "must be a date as YYYY-MM-DD")
  .refine(realDay, "must be a real date, 1900 or later")
  .nullable()
  .meta({
    type: ["string", "null"],
    format: "date",
    description:
      "The day the foster expects to bring the animal back (YYYY-MM-DD); null when open-ended. Past it, the animal is `overdue` on the custody list.",
    example: "2026-12-24",
  });

const noteSchema = z
  .string({ error: () => "must be a string or null" })
  .trim()
  .max(NOTE_MAX, `must be at most ${NOTE_MAX} characters`)
  .transform((s) => (s === "" ? null : s))
  .nullable()
  .meta({
    type: ["string", "null"],
    maxLength: NOTE_MAX,
    description: `Staff's note on the placement, at most ${NOTE_MAX} characters.`,
    example: "Needs a home without cats",
  });

/** POST /v1/pets/{petId}/placements. */
export const newPlacementSchema = z
  .strictObject({
    personId: idSchema.meta({ description: "The foster: a person of the animal's organisation with an active foster role.", example: 3 }),
    at: stayTimeSchema.optional(),
    expectedEndOn: expectedEndOnSchema.optional(),
    note: noteSchema.optional(),
    overrideCapacity: z
      .boolean({ error: () => "must be true or false" })
      .optional()
      .meta({
        description:
          "Staff only (a key gets 403): place the animal although the foster has no room left; recorded on the placement (`capacityOverridden`) and in the audit record.",
      }),
  })
  .meta({
    id: "NewPlacement",
    description:
      "The animal goes to a foster home, from `at` (now when left out; an RFC 3339 time or a date, midnight in the organisation's zone; never in the future nor before the open stay's intake). With another foster already, it moves: that placement ends (`movedToAnotherFoster`) and this one starts at the same instant.",
  });
export type NewPlacement = z.infer<typeof newPlacementSchema>;

/** POST /v1/pets/{petId}/placements/{placementId}/end. */
export const endPlacementSchema = z
  .strictObject({
    at: stayTimeSchema.optional(),
    reason: z.enum(ENDED_BY_HAND, { error: () => `must be one of ${ENDED_BY_HAND.join(", ")}` }).meta({
      description: "Why the placement ended. `stayEnded` is not among them: recording an outcome ends the open placement by itself.",
      example: "returnedToShelter",
    }),
  })
  .meta({ id: "PlacementEnd", description: "The animal comes back from its foster home at `at` (now when left out; not before the placement's start)." });
export type PlacementEnd = z.infer<typeof endPlacementSchema>;

/** PATCH /v1/pets/{petId}/placements/{placementId}. */
export const placementPatchSchema = z
  .strictObject({
    startAt: stayTimeSchema.optional(),
    endAt: stayTimeSchema.optional().meta({ description: "Only for a placement that has ended (end an open one with POST …/end)." }),
    expectedEndOn: expectedEndOnSchema.optional(),
    note: noteSchema.optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), "must change at least one of startAt, endAt, expectedEndOn, note")
  .meta({
    id: "PlacementPatch",
    description: "A correction: the placement's dates, expected end or note. It must stay inside its stay and overlap no other placement of the animal.",
    minProperties: 1,
  });
export type PlacementPatch = z.infer<typeof placementPatchSchema>;

export const placementSchema = z
  .object({
    id: z.number().int().meta({ example: 12 }),
    personId: z.number().int().nullable().meta({ description: "The foster's person id; null for an unnamed foster (a history import's).", example: 3 }),
    stayId: z.number().int().meta({ description: "The stay the placement lies in.", example: 7 }),
    startAt: z.string().meta({ format: "date-time", example: "2026-11-28T14:30:00.000Z" }),
    endAt: z.string().nullable().meta({ format: "date-time", description: "Null while the animal is there.", example: null }),
    endReason: z.enum(PLACEMENT_END_REASONS).nullable().meta({
      id: "PlacementEndReason",
      description: "Why it ended (null while open): `stayEnded` when an outcome ended the stay, and so the placement, at the same instant.",
      example: null,
    }),
    expectedEndOn: z.string().nullable().meta({ format: "date", example: "2026-12-24" }),
    note: z.string().nullable().meta({ example: null }),
    capacityOverridden: z.boolean().meta({ description: "Staff placed the animal although the foster had no room left." }),
  })
  .meta({ id: "Placement", description: "A stay of the animal in a foster home, inside one of its stays at the shelter." });
export type Placement = z.infer<typeof placementSchema>;

export const placementsSchema = z.array(placementSchema).meta({ id: "Placements", description: "A page of an animal's placements, oldest first." });

const limitSchema = (what: string) =>
  queryInteger(1, LIMIT_MAX, "int32")
    .default(LIMIT_DEFAULT)
    .meta({ description: `Maximum number of ${what} returned (1 to ${LIMIT_MAX}).`, example: 20, default: LIMIT_DEFAULT });
const cursorSchema = z
  .string()
  .min(1, "must not be empty")
  .optional()
  .meta({ description: "Opaque paging cursor, taken from a `Link` header; never built by hand." });

/** `GET /v1/pets/{petId}/placements`'s query: paged as every list is. */
export const listPlacementsQuerySchema = z.object({ limit: limitSchema("placements"), cursor: cursorSchema });
export type ListPlacementsQuery = z.infer<typeof listPlacementsQuerySchema>;

const pathId = (what: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(Number.MAX_SAFE_INTEGER, "is too large"))
    .meta({ type: "integer", description: `Identifier of the ${what}.`, example: 7 });

export const placementParamsSchema = z.object({ petId: pathId("animal"), placementId: pathId("placement") });

// The custody list: where each animal in care is.

export const custodyQuerySchema = z.object({
  where: z
    .enum(["shelter", "foster"], { error: () => "must be shelter or foster" })
    .optional()
    .meta({ description: "`shelter`: only the animals at the shelter; `foster`: only those in a foster home.", example: "foster" }),
  personId: queryInteger(1, Number.MAX_SAFE_INTEGER).optional().meta({ description: "Only the animals with this foster now.", example: 3 }),
  overdue: z
    .enum(["true", "false"], { error: () => "must be true or false" })
    .transform((v) => v === "true")
    .optional()
    .meta({
      type: "boolean",
      enum: undefined,
      description: "`true`: only the animals whose foster's expected end day is before today (in the organisation's time zone).",
      example: true,
    }),
  limit: limitSchema("animals"),
  cursor: cursorSchema,
});
export type CustodyQuery = z.infer<typeof custodyQuerySchema>;

const fosterCustodySchema = z
  .object({
    kind: z.literal("foster"),
    placementId: z.number().int(),
    personId: z.number().int().nullable(),
    personName: z.string().nullable().meta({
      description: "The foster's name, for readers of the organisation's people (`people:read`); null for others, and for an erased or unnamed foster.",
    }),
    since: z.string().meta({ format: "date-time" }),
    expectedEndOn: z.string().nullable().meta({ format: "date" }),
    overdue: z.boolean().meta({ description: "`expectedEndOn` is before today in the organisation's time zone." }),
  })
  .meta({ id: "FosterCustody" });

export const custodyEntrySchema = z
  .object({
    petId: z.number().int(),
    name: z.string(),
    categoryId: z.number().int(),
    custody: z.discriminatedUnion("kind", [z.object({ kind: z.literal("shelter") }).meta({ id: "ShelterCustody" }), fosterCustodySchema]),
  })
  .meta({ id: "CustodyEntry", description: "An animal in care and where it is: at the shelter, or in a foster home." });
export type CustodyEntry = z.infer<typeof custodyEntrySchema>;

export const custodyListSchema = z
  .array(custodyEntrySchema)
  .meta({ id: "Custody", description: "A page of the organisation's animals in care, oldest first." });
