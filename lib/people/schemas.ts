import { z } from "zod";
import { FosterStatus } from "@/lib/generated/prisma/enums";
import { idSchema, LIMIT_DEFAULT, LIMIT_MAX, queryInteger, searchSchema, SEARCH_MAX } from "@/lib/core/schemas";
import { STORABLE_ISSUE, storable } from "@/lib/core/text";
import { addressInputSchema, addressPatchSchema, addressSchema, emailSchema, organizationIdParamsSchema, phoneSchema } from "@/lib/organizations/schemas";

// An organisation's people (issue 50, docs/decisions/028): personal data
// (name, email, phone, home, private notes), and the foster role some of
// them hold. The one source of their shapes for the handlers, the OpenAPI
// document and the staff pages.

export const PERSON_NAME_MAX = 100;
export const NOTES_MAX = 5000;
export const CAPACITY_MAX = 50;
export const BLACKOUTS_MAX = 50;

/** The monthly report's species (lib/reports): a foster takes some of them, or any (none named). */
export const FOSTER_SPECIES = ["dog", "cat", "other"] as const;
export type FosterSpecies = (typeof FOSTER_SPECIES)[number];

/**
 * An animal's species as a foster's list names it, from its category's name:
 * the same rule as the database's report_species() (migration
 * 20261203300000), which the placement's check uses; this copy lets a page
 * say which fosters take the animal before it asks.
 */
export function speciesOfCategory(name: string): FosterSpecies {
  return name === "Dogs" ? "dog" : name === "Cats" ? "cat" : "other";
}

export const FOSTER_STATUSES = Object.values(FosterStatus) as [FosterStatus, ...FosterStatus[]];

export const fosterStatusSchema = z.enum(FOSTER_STATUSES).meta({
  id: "FosterStatus",
  description:
    "Where the foster stands: `applicant` (not yet approved), `active` (takes animals), `paused` (for a while), `inactive` (no longer), `doNotPlace` (never again). Only an active foster is offered animals.",
  example: "active",
});

export const fosterSpeciesSchema = z.enum(FOSTER_SPECIES).meta({
  id: "FosterSpecies",
  description: "The monthly report's species: `dog`, `cat`, or `other`.",
  example: "dog",
});

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const realDay = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** A calendar day, YYYY-MM-DD (the organisation's calendar). */
const daySchema = z
  .string({ error: () => "must be a date (YYYY-MM-DD)" })
  .refine((s) => DAY.test(s) && realDay(s), "must be a real date (YYYY-MM-DD)")
  .meta({ format: "date", pattern: DAY.source, example: "2026-12-24" });

export const blackoutSchema = z
  .strictObject({
    from: daySchema.meta({ description: "The first day the foster cannot take an animal.", example: "2026-12-24" }),
    to: daySchema.meta({ description: "The last day (included).", example: "2027-01-02" }),
  })
  .refine((b) => !(DAY.test(b.from) && DAY.test(b.to)) || b.to >= b.from, { message: "must not be before from", path: ["to"] })
  .meta({ id: "Blackout", description: "Days the foster cannot take an animal, both included (`to` not before `from`)." });
export type Blackout = z.infer<typeof blackoutSchema>;

export const capacitySchema = z
  .number({ error: () => "must be a whole number from 1 to 50" })
  .int("must be a whole number from 1 to 50")
  .min(1, `must be from 1 to ${CAPACITY_MAX}`)
  .max(CAPACITY_MAX, `must be from 1 to ${CAPACITY_MAX}`)
  .meta({ description: `How many animals the foster takes at once (1 to ${CAPACITY_MAX}).`, example: 2 });

export const speciesListSchema = z
  .array(fosterSpeciesSchema, { error: () => 'must be an array of "dog", "cat", "other"' })
  .max(FOSTER_SPECIES.length, `must list at most ${FOSTER_SPECIES.length} species`)
  .refine((list) => new Set(list).size === list.length, "must not name a species twice")
  .meta({ description: "The species the foster takes; empty: any.", example: ["cat"] });

export const blackoutsSchema = z
  .array(blackoutSchema, { error: () => "must be an array of { from, to }" })
  .max(BLACKOUTS_MAX, `must list at most ${BLACKOUTS_MAX} blackouts`)
  .meta({ description: `Days the foster cannot take an animal (at most ${BLACKOUTS_MAX} periods).` });

const FOSTER_FIELDS = ["status", "capacity", "species", "blackouts"] as const;
const notAFosterField = (issue: { code: string }) => (issue.code === "unrecognized_keys" ? `is not a foster field (${FOSTER_FIELDS.join(", ")})` : undefined);

/** The foster role as given on creation: status `applicant` and capacity 1 unless told. */
const fosterInputSchema = z
  .strictObject(
    {
      status: fosterStatusSchema.default("applicant"),
      capacity: capacitySchema.default(1),
      species: speciesListSchema.default([]),
      blackouts: blackoutsSchema.default([]),
    },
    { error: notAFosterField },
  )
  .meta({ id: "FosterInput", description: "The person fosters. `status` is `applicant` and `capacity` 1 unless given." });

/** The foster role in a merge patch: the fields sent change (lists are replaced whole). */
const fosterPatchSchema = z
  .strictObject(
    {
      status: fosterStatusSchema.optional(),
      capacity: capacitySchema.optional(),
      species: speciesListSchema.optional(),
      blackouts: blackoutsSchema.optional(),
    },
    { error: notAFosterField },
  )
  .meta({
    id: "FosterPatch",
    description:
      "The foster fields to change; the others keep their values (`species` and `blackouts` are replaced whole). Sent to a person who is no foster yet, it makes them one (`applicant`, capacity 1 unless given).",
  });

const personNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .min(1, "must not be blank")
  .max(PERSON_NAME_MAX, `must be at most ${PERSON_NAME_MAX} characters`)
  .refine(storable, STORABLE_ISSUE)
  .meta({ description: `1 to ${PERSON_NAME_MAX} characters after trimming.`, example: "Robin Fields" });

const notesSchema = z
  .string({ error: () => "must be a string or null" })
  .trim()
  .max(NOTES_MAX, `must be at most ${NOTES_MAX} characters`)
  .refine(storable, STORABLE_ISSUE)
  .transform((s) => (s === "" ? null : s))
  .nullable()
  .meta({
    type: ["string", "null"],
    maxLength: NOTES_MAX,
    description: `The organisation's private notes (at most ${NOTES_MAX} characters); never shown outside it.`,
    example: "Has a fenced yard; no cats.",
  });

const personEmailSchema = emailSchema.meta({
  description: "Unique within the organisation, whatever its case (a second person with it is 409 `person_exists`).",
  example: "robin@example.org",
});
const personPhoneSchema = phoneSchema.meta({ description: "Digits, spaces and + ( ) - . (at least 5).", example: "+1 312 555 0142" });
const HOME =
  "The person's home, written as an organisation's address. A US home's postcode must be a US ZIP code (5 digits, or ZIP+4): it places the home at that ZIP code's centre, never at the street.";

const PERSON_FIELDS = ["name", "email", "phone", "address", "notes", "foster"] as const;
const notAPersonField = (issue: { code: string }) =>
  issue.code === "unrecognized_keys" ? `is not a field of a person (${PERSON_FIELDS.join(", ")})` : undefined;

/** POST /v1/organizations/{organizationId}/people. */
export const newPersonSchema = z
  .strictObject(
    {
      name: personNameSchema,
      email: personEmailSchema.default(null),
      phone: personPhoneSchema.default(null),
      address: addressInputSchema.nullable().default(null).meta({ description: HOME }),
      notes: notesSchema.default(null),
      foster: fosterInputSchema.nullable().default(null).meta({ description: "The foster role; null (or left out) when the person does not foster." }),
    },
    { error: notAPersonField },
  )
  .meta({ id: "NewPerson", description: "A new person of the organisation. Unknown fields are refused (400 `invalid_body` naming each)." });
export type NewPerson = z.infer<typeof newPersonSchema>;

/**
 * PATCH …/people/{personId}: a JSON merge patch (RFC 7396), as an animal's
 * is. `address` and `foster` merge field by field; `null` removes the
 * address, the foster role, or a field that may be unknown.
 */
export const personPatchSchema = z
  .strictObject(
    {
      name: personNameSchema.optional(),
      email: personEmailSchema.optional(),
      phone: personPhoneSchema.optional(),
      address: addressPatchSchema
        .nullable()
        .optional()
        .meta({ description: `The address fields to change; null removes the address. ${HOME}` }),
      notes: notesSchema.optional(),
      foster: fosterPatchSchema.nullable().optional().meta({ description: "The foster fields to change; null removes the foster role." }),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `is not a field that can be changed (${PERSON_FIELDS.join(", ")})` : undefined) },
  )
  .refine((patch) => PERSON_FIELDS.some((field) => patch[field] !== undefined), "must change at least one field")
  .meta({ id: "PersonPatch", description: "The fields to change; the others keep their values. At least one field; no others.", minProperties: 1 });
export type PersonPatch = z.infer<typeof personPatchSchema>;

export const fosterSchema = z
  .object({
    status: fosterStatusSchema,
    capacity: z
      .number()
      .int()
      .meta({ description: `How many animals the foster takes at once (1 to ${CAPACITY_MAX}).`, example: 2 }),
    species: z.array(fosterSpeciesSchema).meta({ description: "The species the foster takes; empty: any.", example: ["cat"] }),
    blackouts: z
      .array(z.object({ from: z.string().meta({ format: "date", example: "2026-12-24" }), to: z.string().meta({ format: "date", example: "2027-01-02" }) }))
      .meta({ description: "Days the foster cannot take an animal, both included." }),
    placedCount: z.number().int().meta({ description: "The animals placed with the foster now (open placements).", example: 1 }),
    room: z.number().int().meta({ description: "`capacity` − `placedCount`, never below 0.", example: 1 }),
  })
  .meta({ id: "Foster", description: "The person's foster role, with how many animals they have now and room for." });

export const personSchema = z
  .object({
    id: idSchema.meta({ description: "The person's identifier." }),
    organizationId: idSchema.meta({ description: "The organisation the person is a record of." }),
    name: z.string().nullable().meta({ description: "Null once erased.", example: "Robin Fields" }),
    email: z.string().nullable().meta({ description: "Null when not known, or once erased.", example: "robin@example.org" }),
    phone: z.string().nullable().meta({ example: "+1 312 555 0142" }),
    address: addressSchema.nullable().meta({ description: "The person's home; null when not known, or once erased." }),
    notes: z.string().nullable().meta({ description: "The organisation's private notes.", example: "Has a fenced yard; no cats." }),
    foster: fosterSchema.nullable().meta({ description: "Null when the person does not foster." }),
    erased: z.boolean().meta({
      description:
        "True once the person was erased (DELETE, or an erasure request): every personal field is null, and the record stays for its placements' history.",
      example: false,
    }),
    createdAt: z.string().meta({ format: "date-time", example: "2026-12-01T09:30:00.000Z" }),
    updatedAt: z.string().meta({ format: "date-time", example: "2026-12-02T16:05:00.000Z" }),
  })
  .meta({
    id: "Person",
    description: "One of the organisation's people: personal data, read only by its staff and its keys with `people:read` (and platform keys with it).",
  });
export type Person = z.infer<typeof personSchema>;

export const peopleSchema = z.array(personSchema).meta({ id: "People", description: "A page of the organisation's people, by name." });

export const personIdParamsSchema = organizationIdParamsSchema.extend({
  personId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the person.", example: 7 }),
});

const STATUS_LIST = new RegExp(`^(?:${FOSTER_STATUSES.join("|")})(?:,(?:${FOSTER_STATUSES.join("|")}))*$`);

export const listPeopleQuerySchema = z
  .object({
    limit: queryInteger(1, LIMIT_MAX, "int32")
      .default(LIMIT_DEFAULT)
      .meta({ description: `Maximum number of people returned (1 to ${LIMIT_MAX}).`, example: 20, default: LIMIT_DEFAULT }),
    cursor: z.string().min(1, "must not be empty").optional().meta({ description: "Opaque paging cursor, taken from a `Link` header; never built by hand." }),
    role: z
      .enum(["foster"], { error: () => "must be foster" })
      .optional()
      .meta({ description: "Only people with this role.", example: "foster" }),
    status: z
      .string()
      .regex(STATUS_LIST, `must be foster statuses separated by commas (${FOSTER_STATUSES.join(", ")})`)
      .transform((s) => [...new Set(s.split(",") as FosterStatus[])])
      .optional()
      .meta({
        type: "array",
        items: { type: "string", enum: FOSTER_STATUSES },
        minItems: 1,
        pattern: undefined,
        param: { style: "form", explode: false },
        description: "Only fosters with one of these statuses (comma-separated).",
        example: ["active", "paused"],
      }),
    species: fosterSpeciesSchema.optional().meta({ description: "Only fosters who take this species (those who take any included)." }),
    hasRoom: z
      .enum(["true", "false"], { error: () => "must be true or false" })
      .transform((s) => s === "true")
      .optional()
      .meta({
        type: "boolean",
        example: true,
        description:
          "`true`: only fosters who can take an animal on the day `on`: active, with room (capacity above their open placements), and that day in none of their blackouts. `false`: the other fosters.",
      }),
    on: daySchema
      .optional()
      .meta({ description: "The day `hasRoom` asks about (YYYY-MM-DD); today in the organisation's time zone when left out.", example: "2026-12-24" }),
    q: searchSchema.optional().meta({
      description: `Only people whose name or email contains this text, ignoring case; 1 to ${SEARCH_MAX} characters after trimming.`,
      example: "robin",
    }),
  })
  .superRefine((q, ctx) => {
    if (q.on !== undefined && q.hasRoom === undefined)
      ctx.addIssue({ code: "custom", path: ["on"], message: "is the day hasRoom asks about: send hasRoom too" });
  });
export type ListPeopleQuery = z.infer<typeof listPeopleQuerySchema>;
