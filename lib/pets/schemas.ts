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
  })
  .meta({ id: "Pet", description: "An animal as returned." });
export type Pet = z.infer<typeof petSchema>;

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

export const listPetsQuerySchema = z.object({
  limit: queryInteger(1, LIMIT_MAX, "int32")
    .default(LIMIT_DEFAULT)
    .meta({ description: "Maximum number of animals returned (1 to 100).", example: 20, default: LIMIT_DEFAULT }),
  status: petStatusSchema.optional().meta({ description: "Only animals with this status." }),
  categoryId: queryInteger(1, Number.MAX_SAFE_INTEGER)
    .optional()
    .meta({ description: "Only animals of this category.", example: 1 }),
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
