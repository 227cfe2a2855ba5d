import { z } from "zod";
import { IntakeType, OutcomeType } from "@/lib/generated/prisma/enums";
import { idSchema, LIMIT_DEFAULT, LIMIT_MAX, queryInteger } from "@/lib/core/schemas";

// An animal's stays at its shelter (issue 42, docs/decisions/023): the
// shapes the stays API takes and answers, in one place for the handlers,
// the OpenAPI document and the staff pages. The types are the Basic Data
// Matrix's categories, taken from the database's enums so the two cannot
// disagree.

export const INTAKE_TYPES = Object.values(IntakeType) as [IntakeType, ...IntakeType[]];
export const OUTCOME_TYPES = Object.values(OutcomeType) as [OutcomeType, ...OutcomeType[]];
/** The live outcomes (the matrix's "live release"); the others are not. */
export const LIVE_OUTCOMES: readonly OutcomeType[] = ["adoption", "returnedToOwner", "transferredOut", "returnedToField", "otherLiveOutcome"];
export type { IntakeType, OutcomeType };

export const intakeTypeSchema = z.enum(INTAKE_TYPES).meta({
  id: "IntakeType",
  description: "How the animal came in, in the Basic Data Matrix's categories (returns of adopted animals are `relinquishedByOwner`).",
  example: "stray",
});
export const outcomeTypeSchema = z.enum(OUTCOME_TYPES).meta({
  id: "OutcomeType",
  description:
    "How the stay ended, in the Basic Data Matrix's categories. Live: adoption, returnedToOwner, transferredOut, returnedToField, otherLiveOutcome. `adoption` makes the animal `sold`; any other takes it out of care (off every public list).",
  example: "adoption",
});

/**
 * The matrix's 2021 revision (issue 50): seized or impounded animals among the other intakes,
 * and transfers by distance. A detail of today's types, never a type of its own, so a client that
 * knows today's values never meets an unknown one (docs/decisions/028).
 */
export const TRANSFER_DISTANCES = ["inState", "outOfState", "international"] as const;
export const INTAKE_DETAILS = ["seizedOrImpounded", ...TRANSFER_DISTANCES] as const;
export type IntakeDetail = (typeof INTAKE_DETAILS)[number];
export type OutcomeDetail = (typeof TRANSFER_DISTANCES)[number];

/** The type a detail belongs to (the database's pet_stays_*_detail_check says the same). */
export function intakeDetailFits(type: IntakeType, detail: IntakeDetail | null | undefined): boolean {
  if (!detail) return true;
  return detail === "seizedOrImpounded" ? type === "otherIntake" : type === "transferredIn";
}
export function outcomeDetailFits(type: OutcomeType | null, detail: OutcomeDetail | null | undefined): boolean {
  return !detail || type === "transferredOut";
}
export const DETAIL_RULE = "seizedOrImpounded goes with the type otherIntake; inState, outOfState and international with transferredIn or transferredOut";

export const intakeDetailSchema = z.enum(INTAKE_DETAILS).meta({
  id: "IntakeDetail",
  description:
    "The matrix's 2021 detail of an intake: `seizedOrImpounded` (type `otherIntake`), or a transfer's distance, `inState`, `outOfState` or `international` (type `transferredIn`). Null when none.",
  example: "seizedOrImpounded",
});
export const outcomeDetailSchema = z.enum(TRANSFER_DISTANCES).meta({
  id: "OutcomeDetail",
  description: "The matrix's 2021 detail of an outcome: a transfer's distance (type `transferredOut`). Null when none.",
  example: "outOfState",
});

export const SUBTYPE_MAX = 100;

/**
 * The most stays one animal keeps (issue 48). A shelter's real histories
 * hold a few per animal (Long Beach's busiest has 9); the bound keeps every
 * reader and writer of one animal's stays (a history import's plan, the
 * animal's page) a bounded piece of work, whatever a file holds. A new
 * intake past it is refused (409 too_many_stays); an import refuses the
 * file's oldest new stays past it, each with a report entry.
 */
export const STAYS_PER_ANIMAL_MAX = 500;

/** When something happened: an instant, or a day of the organisation's calendar (midnight there). */
export type StayTime = { instant: Date } | { day: string };

const DAY = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const INSTANT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?([Zz]|[+-][0-9]{2}:[0-9]{2})$/;

function realDay(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** What a valid `at` means: a day (YYYY-MM-DD) or an instant. The schema has checked it; parsed here so the wire format stays a string (forms send what they parse). */
export function stayTimeOf(s: string): StayTime {
  return DAY.test(s) ? { day: s } : { instant: new Date(s) };
}

/**
 * `at`: an RFC 3339 time, or a date (YYYY-MM-DD: midnight of that day in the
 * organisation's time zone). Whether it is in the future is the service's
 * check: a day's midnight depends on the organisation's zone.
 */
export const stayTimeSchema = z
  .string({ error: () => "must be an RFC 3339 time (2026-11-28T14:30:00Z) or a date (YYYY-MM-DD)" })
  .refine((s) => {
    if (DAY.test(s)) return realDay(s) && s >= "1900-01-01";
    const instant = INSTANT.test(s) ? new Date(s) : new Date(Number.NaN);
    return !Number.isNaN(instant.getTime()) && realDay(s.slice(0, 10)) && instant.getUTCFullYear() >= 1900;
  }, "must be an RFC 3339 time (2026-11-28T14:30:00Z) or a real date (YYYY-MM-DD), 1900 or later")
  .meta({
    // DAY or INSTANT as one pattern (that the day is real and from 1900 is the check's alone).
    pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?([Zz]|[+-][0-9]{2}:[0-9]{2}))?$",
    description:
      "An RFC 3339 time (`2026-11-28T14:30:00-06:00`) or a date (`2026-11-28`: midnight of that day in the organisation's `timeZone`). Never in the future; now when left out.",
    example: "2026-11-28T14:30:00Z",
  });

const subtypeSchema = z
  .string({ error: () => "must be a string or null" })
  .trim()
  .max(SUBTYPE_MAX, `must be at most ${SUBTYPE_MAX} characters`)
  .transform((s) => (s === "" ? null : s))
  .nullable()
  .meta({
    type: ["string", "null"],
    maxLength: SUBTYPE_MAX,
    description: `The shelter's own word for it ("OWNER SURRENDER"), at most ${SUBTYPE_MAX} characters; null when none.`,
    example: "Found on Main St",
  });

/** An intake as a request gives it (POST /v1/pets/{id}/stays, and `intake` of a new animal). */
export const intakeInputSchema = z
  .strictObject({
    at: stayTimeSchema.optional(),
    type: intakeTypeSchema,
    subtype: subtypeSchema.optional(),
    fosterId: idSchema.optional().meta({
      description:
        "Straight into a foster home: the person (an active foster of the organisation, not in a blackout, taking the animal's species, with room) the animal goes to at its intake. The stay and the placement start together or not at all (409 `foster_not_active`, `foster_in_blackout`, `foster_species`, `foster_full`, 404 for a person not of the organisation, each naming `intake.fosterId`). Scope `records:write`.",
    }),
    detail: intakeDetailSchema.nullable().optional(),
  })
  .refine((i) => intakeDetailFits(i.type, i.detail), { path: ["detail"], message: `does not go with the type: ${DETAIL_RULE}` })
  .meta({ id: "IntakeInput", description: "How and when the animal came in. `at` is now when left out." });
export type IntakeInput = z.infer<typeof intakeInputSchema>;

export const newStaySchema = z
  .strictObject({ intake: intakeInputSchema })
  .meta({ id: "NewStay", description: "A new intake: the animal is back in care and `available`. Refused (409 `stay_open`) while a stay is open." });

/** POST /v1/pets/{id}/stays/{stayId}/outcome. */
export const outcomeInputSchema = z
  .strictObject({
    at: stayTimeSchema.optional(),
    type: outcomeTypeSchema,
    subtype: subtypeSchema.optional(),
    detail: outcomeDetailSchema.nullable().optional(),
  })
  .refine((o) => outcomeDetailFits(o.type, o.detail), { path: ["detail"], message: `does not go with the type: ${DETAIL_RULE}` })
  .meta({ id: "OutcomeInput", description: "How and when the stay ended. `at` is now when left out; not before the intake." });
export type OutcomeInput = z.infer<typeof outcomeInputSchema>;

const partPatch = <T extends z.ZodType, D extends z.ZodType>(type: T, detail: D) =>
  z
    .strictObject({ at: stayTimeSchema.optional(), type: type.optional(), subtype: subtypeSchema.optional(), detail: detail.nullable().optional() })
    .refine(
      (p) => p.at !== undefined || p.type !== undefined || p.subtype !== undefined || p.detail !== undefined,
      "must change at least one of at, type, subtype, detail",
    );

/** PATCH /v1/pets/{id}/stays/{stayId}: a correction of the intake, the outcome, or both. */
export const stayPatchSchema = z
  .strictObject({
    intake: partPatch(intakeTypeSchema, intakeDetailSchema).optional().meta({ id: "IntakePatch", description: "The intake's fields to correct." }),
    outcome: partPatch(outcomeTypeSchema, outcomeDetailSchema)
      .optional()
      .meta({ id: "OutcomePatch", description: "The outcome's fields to correct (the stay must have ended: record an outcome with POST …/outcome)." }),
  })
  .refine((p) => p.intake !== undefined || p.outcome !== undefined, "must correct the intake, the outcome, or both")
  .meta({
    id: "StayPatch",
    description:
      "A correction: a date, type, subtype or detail of the intake or the outcome. The others keep their values; a new type that its detail does not go with clears the detail.",
    minProperties: 1,
  });
export type StayPatch = z.infer<typeof stayPatchSchema>;

const stayPartSchema = <T extends z.ZodType, D extends z.ZodType>(type: T, detail: D) =>
  z.object({
    at: z.string().meta({ format: "date-time", example: "2026-11-28T14:30:00.000Z" }),
    type,
    subtype: z.string().nullable().meta({ example: null }),
    detail: detail.nullable().meta({ example: null }),
  });

export const staySchema = z
  .object({
    id: z.number().int().meta({ example: 7 }),
    intake: stayPartSchema(intakeTypeSchema, intakeDetailSchema).meta({ id: "Intake" }),
    outcome: stayPartSchema(outcomeTypeSchema, outcomeDetailSchema)
      .nullable()
      .meta({ id: "Outcome", description: "Null while the stay is open (the animal is in care)." }),
  })
  .meta({ id: "Stay", description: "One stay of an animal at its shelter, from intake to outcome." });
export type Stay = z.infer<typeof staySchema>;

export const staysSchema = z.array(staySchema).meta({ id: "Stays", description: "A page of an animal's stays, oldest first." });

/** `GET /v1/pets/{id}/stays`'s query: paged as every list is (`limit`, the opaque `cursor` from the `Link` header). */
export const listStaysQuerySchema = z.object({
  limit: queryInteger(1, LIMIT_MAX, "int32")
    .default(LIMIT_DEFAULT)
    .meta({ description: `Maximum number of stays returned (1 to ${LIMIT_MAX}).`, example: 20, default: LIMIT_DEFAULT }),
  cursor: z.string().min(1, "must not be empty").optional().meta({ description: "Opaque paging cursor, taken from a `Link` header; never built by hand." }),
});
export type ListStaysQuery = z.infer<typeof listStaysQuerySchema>;

/** A path's id segment (the placements' paths name their ids the same way). */
export const pathId = (what: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(Number.MAX_SAFE_INTEGER, "is too large"))
    .meta({ type: "integer", description: `Identifier of the ${what}.`, example: 7 });

export const stayParamsSchema = z.object({ petId: pathId("animal"), stayId: pathId("stay") });
