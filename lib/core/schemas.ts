import { z } from "zod";

// zod building blocks every domain's schemas share: ids, paging, integers in
// a query string, lists of ids, a name search. Below the domains, so that
// organisations, audit and the rest need not import the pets' schemas.

/** Identifiers are int64 in the database; clients may send 1..2^53-1 so every id survives a JSON number. */
export const idSchema = z
  .number({ error: (issue) => (issue.input === undefined ? "is required" : "must be an integer") })
  .int("must be an integer")
  .min(1, "must be at least 1")
  .max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}`)
  .meta({ format: "int64", example: 1 });

/** Length in characters as people count them (code points), matching PostgreSQL's varchar(100). */
export const characterCount = (s: string) => [...s].length;

export const LIMIT_DEFAULT = 20;
export const LIMIT_MAX = 100;

/**
 * A query-string integer: digits only ("1.5", "1e2", " 3", "0x10" are
 * refused, not coerced). Documented as the integer it stands for.
 */
export const queryInteger = (min: number, max: number, format: "int32" | "int64" = "int64") =>
  z
    .string()
    .regex(/^[0-9]+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .meta({ type: "integer", format, minimum: min, maximum: max, pattern: undefined });

export const IDS_MAX = 100;
export const SEARCH_MAX = 100;

/** `id=12,15`: the animals to list (getPet's successor). Duplicates count once. */
export const idListSchema = z
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
export const searchSchema = z
  .string()
  .trim()
  .refine((s) => s.length > 0, "must not be blank")
  .refine((s) => characterCount(s) <= SEARCH_MAX, `must be at most ${SEARCH_MAX} characters`)
  .refine((s) => !s.includes("\u0000"), "must not contain NUL characters")
  .meta({ minLength: 1, maxLength: SEARCH_MAX });
