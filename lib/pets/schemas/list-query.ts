import { z } from "zod";
import { AGE_GROUPS } from "@/lib/pets/age";
import { COAT_LENGTHS, GOOD_WITH, PET_SIZES } from "@/lib/pets/profile";
import { nearSchema, withinNeedsNear, withinSchema } from "@/lib/organizations/geo";
import { petStatusSchema, petSexSchema, EXTERNAL_ID_MAX, noControlCharacters } from "@/lib/pets/schemas/fields";
import { characterCount, idListSchema, IDS_MAX, LIMIT_DEFAULT, LIMIT_MAX, queryInteger, searchSchema, SEARCH_MAX } from "@/lib/core/schemas";

// `GET /v1/pets`'s query string: the filters, the name search, near/within, paging.

/** `size=small,medium`: a comma-separated choice among `values`, each at most once. */
function choiceList<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .transform((list, ctx) => {
      const items = list.split(",");
      const wrong = items.filter((item) => !(values as readonly string[]).includes(item));
      if (wrong.length) {
        ctx.addIssue({ code: "custom", message: `must be one or more of ${values.join(", ")}, separated by commas (got "${wrong[0]!.slice(0, 40)}")` });
        return z.NEVER;
      }
      return [...new Set(items)] as T[number][];
    })
    .meta({
      type: "array",
      items: { type: "string", enum: [...values] },
      minItems: 1,
      maxItems: values.length,
      param: { style: "form", explode: false },
    });
}

/** `houseTrained=true`: a query-string boolean, spelled exactly `true` or `false`. */
const queryBoolean = () =>
  z
    .enum(["true", "false"], { error: () => "must be true or false" })
    .transform((v) => v === "true")
    .meta({ type: "boolean", enum: undefined });

/** `externalId=A123,A124`: the shelters' own ids, comma-separated (an id never holds a comma). Duplicates count once. */
export const externalIdListSchema = z
  .string()
  .transform((list, ctx) => {
    const ids = list.split(",").map((id) => id.trim());
    if (ids.some((id) => id.length === 0)) ctx.addIssue({ code: "custom", message: "must be ids separated by commas, e.g. A123,A124 (none blank)" });
    else if (ids.some((id) => characterCount(id) > EXTERNAL_ID_MAX))
      ctx.addIssue({ code: "custom", message: `each id must be at most ${EXTERNAL_ID_MAX} characters` });
    else if (ids.some((id) => !noControlCharacters(id) || !id.isWellFormed())) ctx.addIssue({ code: "custom", message: "must not contain control characters" });
    const unique = [...new Set(ids)];
    if (unique.length > IDS_MAX) ctx.addIssue({ code: "custom", message: `must list at most ${IDS_MAX} ids` });
    return unique;
  })
  .meta({
    type: "array",
    items: { type: "string", minLength: 1, maxLength: EXTERNAL_ID_MAX },
    minItems: 1,
    maxItems: IDS_MAX,
    param: { style: "form", explode: false },
  });

export const listPetsQuerySchema = z
  .object({
    limit: queryInteger(1, LIMIT_MAX, "int32")
      .default(LIMIT_DEFAULT)
      .meta({ description: "Maximum number of animals returned (1 to 100).", example: 20, default: LIMIT_DEFAULT }),
    status: petStatusSchema.optional().meta({ description: "Only animals with this status." }),
    categoryId: queryInteger(1, Number.MAX_SAFE_INTEGER).optional().meta({ description: "Only animals of this category.", example: 1 }),
    organizationId: idListSchema.optional().meta({
      description: `Only animals at these organisations (comma-separated ids, at most ${IDS_MAX}), e.g. \`1,2\`.`,
      example: [1, 2],
    }),
    near: nearSchema.optional(),
    within: withinSchema.optional(),
    id: idListSchema.optional().meta({
      description: `Only these animals (comma-separated ids, at most ${IDS_MAX}), e.g. \`12,15\`. With one id this is the successor of the deprecated \`GET /pets/{petId}\`: an empty array means no such animal.`,
      example: [12, 15],
    }),
    q: searchSchema.optional().meta({
      description: `Only animals whose name contains this text, ignoring case and accents (\`zoe\` finds "Zoë"); 1 to ${SEARCH_MAX} characters after trimming; \`%\` and \`_\` match themselves.`,
      example: "bis",
    }),
    sex: petSexSchema.optional().meta({ description: "Only animals of this sex." }),
    size: choiceList(PET_SIZES)
      .optional()
      .meta({ description: "Only animals of these sizes (any of them), e.g. `small,medium`.", example: ["small", "medium"] }),
    age: choiceList(AGE_GROUPS)
      .optional()
      .meta({
        description: "Only animals in these age groups (any of them), computed from `birthDate` on the day of the request, e.g. `baby,young`.",
        example: ["baby", "young"],
      }),
    goodWith: choiceList(GOOD_WITH)
      .optional()
      .meta({ description: "Only animals known to get on with all of these, e.g. `children,cats`.", example: ["children", "cats"] }),
    externalId: externalIdListSchema.optional().meta({
      description: `Only animals with these \`externalId\`s (the shelters' own ids; comma-separated, at most ${IDS_MAX}), e.g. \`A123,A124\`. The same id may belong to animals of two organisations: add \`organizationId\` for one shelter's.`,
      example: ["A123", "A124"],
    }),
    houseTrained: queryBoolean()
      .optional()
      .meta({ description: "`true`: only animals known to be house-trained (`false`: known not to be). Unknown answers match neither.", example: true }),
    specialNeeds: queryBoolean().optional().meta({
      description: "`true`: only animals known to have special needs; `false`: only those known not to. Unknown answers match neither.",
      example: false,
    }),
    spayedNeutered: queryBoolean()
      .optional()
      .meta({ description: "`true`: only animals known to be spayed or neutered; `false`: known not to be. Unknown answers match neither.", example: true }),
    inCare: queryBoolean().optional().meta({
      description:
        "`false`: only the animals out of care (their last stay ended other than by adoption: transferred out, returned to their owner…), for the organisation's signed-in staff, a platform admin's every organisation's; anyone else `403`. Without it (or `true`), lists hold the animals in care only.",
      example: false,
    }),
    coatLength: choiceList(COAT_LENGTHS)
      .optional()
      .meta({ description: "Only animals with these coat lengths (any of them), e.g. `short,long`.", example: ["short", "long"] }),
    cursor: z.string().min(1, "must not be empty").optional().meta({ description: "Opaque paging cursor, taken from a `Link` header; never built by hand." }),
  })
  .superRefine(withinNeedsNear);
export type ListPetsQuery = z.infer<typeof listPetsQuerySchema>;
