import { z } from "zod";

// The single source of truth for the shapes of the pets API: request
// parsing, TypeScript types, the OpenAPI document and the staff form all
// derive from these schemas.

export const PET_STATUSES = ["available", "pending", "sold"] as const;

export const petStatusSchema = z.enum(PET_STATUSES).meta({
  id: "PetStatus",
  description: "Availability status of the animal.",
  example: "available",
});
export type PetStatus = z.infer<typeof petStatusSchema>;

/** Identifiers are int64 in the database; clients may send 1..2^53-1 so every id survives a JSON number. */
export const idSchema = z
  .number({ error: (issue) => (issue.input === undefined ? "is required" : "must be an integer") })
  .int("must be an integer")
  .min(1, "must be at least 1")
  .max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}`)
  .meta({ format: "int64", example: 1 });

export const NAME_MAX = 100;

/** Length in characters as people count them (code points), matching PostgreSQL's varchar(100). */
export const characterCount = (s: string) => [...s].length;

export const petNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .refine((s) => s.length > 0, "must not be blank")
  .refine((s) => characterCount(s) <= NAME_MAX, `must be at most ${NAME_MAX} characters`)
  // PostgreSQL text cannot hold NUL, and a lone surrogate cannot be stored
  // as UTF-8: both would be silently changed, so they are refused instead.
  .refine((s) => !s.includes("\u0000") && s.isWellFormed(), "must not contain NUL or unpaired surrogate characters")
  .meta({ description: "The animal's name: 1 to 100 characters after trimming, any Unicode.", example: "Biscuit", minLength: 1, maxLength: NAME_MAX });

export const newPetSchema = z
  .object({
    name: petNameSchema,
    categoryId: idSchema.meta({ description: "Identifier of the category the animal belongs to (see GET /categories)." }),
    status: petStatusSchema.default("available").meta({ description: "Availability status; `available` when omitted." }),
  })
  .meta({ id: "NewPet", description: "Request body for creating an animal. Unknown fields (including `id`) are ignored." });
export type NewPet = z.infer<typeof newPetSchema>;
/** What a form holds before parsing: status may still be unset. */
export type NewPetInput = z.input<typeof newPetSchema>;

export const petSchema = z
  .object({
    id: idSchema.meta({ description: "Unique identifier assigned by the service on creation." }),
    name: z.string().meta({ description: "The animal's name.", example: "Biscuit" }),
    categoryId: idSchema.meta({ description: "Identifier of the category the animal belongs to." }),
    status: petStatusSchema,
    // In the body as well as in the ETag header: a list answer has one ETag
    // for many animals, so clients (and the site's edit form) read each
    // animal's version here to send it back in If-Match.
    version: z
      .number()
      .int()
      .min(1)
      .meta({
        description: 'Increases with every change. The animal\'s ETag is this number in quotes (`"3"`); send it in `If-Match` to change only the version you saw.',
        example: 1,
      }),
  })
  .meta({ id: "Pet", description: "An animal as returned." });
export type Pet = z.infer<typeof petSchema>;

/** The fields an animal is made of, without id and version: what a change is about. */
export const PET_FIELDS = ["name", "categoryId", "status"] as const;
export type PetField = (typeof PET_FIELDS)[number];

/**
 * PATCH /v1/pets/{petId}: a JSON merge patch (RFC 7396) of the NewPet fields,
 * each validated exactly as on creation. Unlike NewPet, unknown fields are
 * refused rather than ignored: a typo in a change must not pass as a no-op.
 * null would mean "remove" in a merge patch, and no field can be removed.
 */
export const petPatchSchema = z
  .strictObject(
    {
      name: petNameSchema.optional(),
      categoryId: idSchema.optional().meta({ description: "Identifier of the category (see GET /categories)." }),
      status: petStatusSchema.optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "is not a field that can be changed (name, categoryId, status)" : undefined) },
  )
  .refine((patch) => PET_FIELDS.some((field) => patch[field] !== undefined), "must change at least one of name, categoryId, status")
  .meta({
    id: "PetPatch",
    description: "The fields to change; the others keep their values. At least one field; no others.",
    minProperties: 1,
  });
export type PetPatch = z.infer<typeof petPatchSchema>;
/** What the edit form holds: every field, as the patch schema validates them. */
export type PetPatchInput = z.input<typeof petPatchSchema>;

export const petsSchema = z.array(petSchema).meta({ id: "Pets", description: "A JSON array of Pet objects." });

export const categorySchema = z
  .object({
    id: idSchema.meta({ description: "Category identifier, used as `categoryId`." }),
    name: z.string().meta({ example: "Dogs" }),
  })
  .meta({ id: "Category", description: "A group of animals." });
export type Category = z.infer<typeof categorySchema>;

export const categoriesSchema = z.array(categorySchema).meta({ id: "Categories" });

export const LIMIT_DEFAULT = 20;
export const LIMIT_MAX = 100;

/**
 * A query-string integer: digits only ("1.5", "1e2", " 3", "0x10" are
 * refused, not coerced). Documented as the integer it stands for.
 */
const queryInteger = (min: number, max: number, format: "int32" | "int64" = "int64") =>
  z
    .string()
    .regex(/^[0-9]+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .meta({ type: "integer", format, minimum: min, maximum: max, pattern: undefined });

export const IDS_MAX = 100;
export const SEARCH_MAX = 100;

/** `id=12,15`: the animals to list (getPet's successor). Duplicates count once. */
const idListSchema = z
  .string()
  .regex(/^[0-9]+(?:,[0-9]+)*$/, "must be whole numbers separated by commas, e.g. 12,15")
  .transform((list, ctx) => {
    const ids = list.split(",").map(Number);
    if (ids.length > IDS_MAX) ctx.addIssue({ code: "custom", message: `must list at most ${IDS_MAX} ids` });
    if (ids.some((id) => id < 1 || id > Number.MAX_SAFE_INTEGER)) {
      ctx.addIssue({ code: "custom", message: `each id must be from 1 to ${Number.MAX_SAFE_INTEGER}` });
    }
    return [...new Set(ids)];
  })
  .meta({
    type: "array",
    items: { type: "integer", format: "int64", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    minItems: 1,
    maxItems: IDS_MAX,
    pattern: undefined,
    // id=12,15 rather than id=12&id=15 (which, like any repeated parameter, is refused).
    param: { style: "form", explode: false },
  });

/** `q`: a piece of the name, matched case- and accent-insensitively; `%` and `_` are plain characters. */
const searchSchema = z
  .string()
  .trim()
  .refine((s) => s.length > 0, "must not be blank")
  .refine((s) => characterCount(s) <= SEARCH_MAX, `must be at most ${SEARCH_MAX} characters`)
  .refine((s) => !s.includes("\u0000"), "must not contain NUL characters")
  .meta({ minLength: 1, maxLength: SEARCH_MAX });

export const listPetsQuerySchema = z.object({
  limit: queryInteger(1, LIMIT_MAX, "int32")
    .default(LIMIT_DEFAULT)
    .meta({ description: "Maximum number of animals returned (1 to 100).", example: 20, default: LIMIT_DEFAULT }),
  status: petStatusSchema.optional().meta({ description: "Only animals with this status." }),
  categoryId: queryInteger(1, Number.MAX_SAFE_INTEGER)
    .optional()
    .meta({ description: "Only animals of this category.", example: 1 }),
  id: idListSchema.optional().meta({
    description: `Only these animals (comma-separated ids, at most ${IDS_MAX}), e.g. \`12,15\`. With one id this is the successor of the deprecated \`GET /pets/{petId}\`: an empty array means no such animal.`,
    example: [12, 15],
  }),
  q: searchSchema.optional().meta({
    description: `Only animals whose name contains this text, ignoring case and accents (\`zoe\` finds "Zoë"); 1 to ${SEARCH_MAX} characters after trimming; \`%\` and \`_\` match themselves.`,
    example: "bis",
  }),
  cursor: z
    .string()
    .min(1, "must not be empty")
    .optional()
    .meta({ description: "Opaque paging cursor, taken from a `Link` header; never built by hand." }),
});
export type ListPetsQuery = z.infer<typeof listPetsQuerySchema>;

export const petIdParamsSchema = z.object({
  petId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the animal.", example: 1 }),
});
