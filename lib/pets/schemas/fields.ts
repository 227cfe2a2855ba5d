import { z } from "zod";
import { now } from "@/lib/clock";
import { AGE_GROUPS, isoDay } from "@/lib/pets/age";
import { CURRENCIES, DEFAULT_CURRENCY, FEE_MAX_CENTS } from "@/lib/pets/adoption-fee";
import { PET_SEXES, PET_SIZES } from "@/lib/pets/profile";
import { parseVideoUrl, VIDEO_URL_MAX, VIDEO_URL_RULE } from "@/lib/pets/video";
import { coatLengthSchema } from "@/lib/pets/schemas/vocabulary";
import { characterCount } from "@/lib/core/schemas";
import { STORABLE_ISSUE, storable } from "@/lib/core/text";

// An animal's fields one by one: status, name, the profile, the listing sites'
// words, the adoption fee, the video (the animal itself is lib/pets/schemas/pet.ts).

export const PET_STATUSES = ["available", "pending", "sold"] as const;

export const petStatusSchema = z.enum(PET_STATUSES).meta({
  id: "PetStatus",
  description: "Availability status of the animal.",
  example: "available",
});
export type PetStatus = z.infer<typeof petStatusSchema>;

export const NAME_MAX = 100;

/**
 * A value a spreadsheet runs as a formula: =, +, - or @ (or their
 * full-width forms) with more after it (a lone "-" is text). The listing
 * sites' files and the pull feed are CSV that shelters open in a
 * spreadsheet, and `=HYPERLINK(…)` as a name is a link to anywhere there.
 * Nobody types one as a name, a breed, a colour or a tag, so those refuse
 * it here, in the one schema of every way in (the API, the staff forms,
 * imports); the files themselves carry what is stored, byte for byte.
 */
export const looksLikeFormula = (s: string) => /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]./su.test(s);
export const FORMULA_RULE = "must not start with =, +, - or @ (a spreadsheet opening a listing file would run it as a formula)";
/** looksLikeFormula's rule as the document states it, on the value before trimming: a sign, then more than spaces. */
export const NOT_A_FORMULA_PATTERN = "^(?!\\s*[=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20]\\s*\\S)";

export const petNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .refine((s) => s.length > 0, "must not be blank")
  .refine((s) => characterCount(s) <= NAME_MAX, `must be at most ${NAME_MAX} characters`)
  // PostgreSQL text cannot hold NUL, and a lone surrogate cannot be stored
  // as UTF-8: both would be silently changed, so they are refused instead.
  .refine(storable, STORABLE_ISSUE)
  .refine((s) => !looksLikeFormula(s), FORMULA_RULE)
  .meta({
    description:
      "The animal's name: 1 to 100 characters after trimming, any Unicode, not starting with =, +, - or @ followed by more (a spreadsheet would run it as a formula).",
    example: "Biscuit",
    minLength: 1,
    maxLength: NAME_MAX,
    pattern: NOT_A_FORMULA_PATTERN,
  });

// The profile: who the animal is, beyond a name. Every field is optional on
// create and on PATCH, and every Pet returns all of them (null where unknown).

export const petSexSchema = z.enum(PET_SEXES).meta({ id: "PetSex", description: "The animal's sex; `unknown` when not given.", example: "female" });
export type PetSex = z.infer<typeof petSexSchema>;

export const petSizeSchema = z.enum(PET_SIZES).meta({ id: "PetSize", description: "Size when grown.", example: "medium" });
export type PetSize = z.infer<typeof petSizeSchema>;

export const ageGroupSchema = z.enum(AGE_GROUPS).meta({
  id: "AgeGroup",
  description: "Derived from `birthDate` on the day of the answer: `baby` under 1 year, `young` 1 to under 3, `adult` 3 to under 8, `senior` 8 and over.",
  example: "young",
});

export const BREED_MAX = 100;
export const DESCRIPTION_MAX = 5000;
export const ALT_MAX = 300;
export const PHOTOS_MAX = 10;
/** The earliest birth date accepted: a tortoise may be old, a typo in the year should not pass. */
export const BIRTH_DATE_MIN = "1900-01-01";

/**
 * A free-text field that may be null ("unknown"); blank text is refused rather than silently stored.
 * A `word` (a breed) is never a formula; free text (a description) may start with anything.
 */
export const optionalText = (max: number, what: string, kind: "text" | "word" = "text") =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string or null") })
    .trim()
    .refine((s) => s.length > 0, `must not be blank (send null when ${what} is unknown)`)
    .refine((s) => characterCount(s) <= max, `must be at most ${max} characters`)
    .refine(storable, STORABLE_ISSUE)
    .refine((s) => kind === "text" || !looksLikeFormula(s), FORMULA_RULE)
    .nullable();

export const breedSchema = optionalText(BREED_MAX, "the breed", "word").meta({
  description: `1 to ${BREED_MAX} characters after trimming, not starting with =, +, - or @ followed by more; or null when unknown.`,
  example: "Labrador mix",
  minLength: 1,
  maxLength: BREED_MAX,
  pattern: NOT_A_FORMULA_PATTERN,
});

export const descriptionSchema = optionalText(DESCRIPTION_MAX, "there is nothing to say").meta({
  description: `Plain text, up to ${DESCRIPTION_MAX} characters, line breaks kept; never interpreted as HTML. Null when there is none.`,
  example: "Loves long walks and naps in the sun.\nShy with new people at first.",
  minLength: 1,
  maxLength: DESCRIPTION_MAX,
});

/** Today as a calendar day, in the time zone furthest ahead (UTC+14): a birth date someone picks as "today" anywhere is not "in the future". */
export function latestToday(): string {
  return isoDay(new Date(now().getTime() + 14 * 3600_000));
}

/** A real calendar day as YYYY-MM-DD, from BIRTH_DATE_MIN to today, or null when unknown. */
export const pastDateSchema = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a date (YYYY-MM-DD) or null") })
    .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, "must be a date as YYYY-MM-DD")
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && isoDay(d) === s;
    }, "must be a real calendar date")
    .refine((s) => s >= BIRTH_DATE_MIN, `must be ${BIRTH_DATE_MIN} or later`)
    .refine((s) => s <= latestToday(), "must not be in the future")
    .nullable();

export const birthDateSchema = pastDateSchema().meta({
  format: "date",
  description: "Date of birth as YYYY-MM-DD (an estimate is fine), not in the future; null when unknown. `ageGroup` is derived from it.",
  example: "2024-03-15",
});

export const goodWithAnswer = (kind: string) =>
  z
    .boolean({ error: () => "must be true, false or null" })
    .nullable()
    .meta({ description: `Gets on with ${kind}: true, false, or null when not known.` });

/** How the animal gets on with children, dogs and cats; on input, the answers not given stay as they are (null on create). */
export const goodWithInputSchema = z
  .strictObject(
    {
      children: goodWithAnswer("children").optional(),
      dogs: goodWithAnswer("dogs").optional(),
      cats: goodWithAnswer("cats").optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "is not one of children, dogs, cats" : 'must be an object such as {"children": true}') },
  )
  .meta({ id: "GoodWithInput", description: "Any of children, dogs, cats: true, false or null (unknown). Those not sent keep their value (null on create)." });

export const goodWithSchema = z
  .object({ children: goodWithAnswer("children"), dogs: goodWithAnswer("dogs"), cats: goodWithAnswer("cats") })
  .meta({ id: "GoodWith", description: "How the animal gets on with children, dogs and cats: true, false, or null when not known." });
export type GoodWith = z.infer<typeof goodWithSchema>;

// The profile in the listing sites' words (issue 34): what Petfinder,
// Adopt-a-Pet and RescueGroups share, so a shelter's software can move its
// animals here and this service can list them there. Every field is optional
// on create and PATCH and returned on every Pet; null means "not known",
// never "no".

export const EXTERNAL_ID_MAX = 64;
export const COLORS_MAX = 3;
export const COLOR_MAX = 40;
export const TAGS_MAX = 10;
export const TAG_MAX = 30;
export const SPECIAL_NEEDS_NOTES_MAX = 500;

export const noControlCharacters = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);
/** The first characters of a refused value, to say which one it was. */
export const quoted = (value: unknown) => {
  const chars = [...String(value)];
  return `“${chars.length > 20 ? `${chars.slice(0, 20).join("")}…` : chars.join("")}”`;
};

export const externalIdSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string or null") })
  .trim()
  .refine((s) => s.length > 0, "must not be blank (send null when the animal has none)")
  .refine((s) => characterCount(s) <= EXTERNAL_ID_MAX, `must be at most ${EXTERNAL_ID_MAX} characters`)
  // `?externalId=A1,A2` lists them comma-separated, and the listing sites' files are CSV.
  .refine((s) => !s.includes(","), "must not contain a comma")
  .refine((s) => noControlCharacters(s) && s.isWellFormed(), "must not contain control characters or unpaired surrogates")
  .nullable()
  .meta({
    description: `The shelter's own identifier for the animal (its ID in the shelter's software), 1 to ${EXTERNAL_ID_MAX} characters after trimming, without commas; unique within the organisation (a second animal with it is 409 \`external_id_taken\`), compared exactly (case counts). Null when it has none.`,
    example: "A123",
    minLength: 1,
    maxLength: EXTERNAL_ID_MAX,
    // No comma, no control character (the refinements above, as a pattern).
    pattern: "^[^,\\u0000-\\u001F\\u007F]*$",
  });

/**
 * A short list of words (colours, tags): each trimmed with its inner runs
 * of spaces made one, not blank, at most `itemMax` characters, no commas
 * (the listing sites' files list them comma-separated); repeats dropped
 * ignoring case (the first spelling kept), order kept. null (or leaving it
 * out at creation) is the empty list: nothing known.
 */
export function wordListSchema(noun: string, plural: string, max: number, itemMax: number) {
  const item = z
    .string({ error: () => `each ${noun} must be a string` })
    .transform((s) => s.trim().replace(/\s+/g, " "))
    .refine((s) => s.length > 0, `each ${noun} must not be blank`)
    .refine((s) => characterCount(s) <= itemMax, { error: (issue) => `each ${noun} must be at most ${itemMax} characters (${quoted(issue.input)})` })
    .refine((s) => !s.includes(","), { error: (issue) => `each ${noun} must be one ${noun}, without commas (${quoted(issue.input)})` })
    .refine((s) => noControlCharacters(s) && s.isWellFormed(), `each ${noun} must not contain control characters or unpaired surrogates`)
    .refine((s) => !looksLikeFormula(s), `each ${noun} ${FORMULA_RULE}`);
  return (
    z
      .array(item, { error: () => `must be a list of up to ${max} ${plural}, or null` })
      .max(max, `must list at most ${max} ${plural}`)
      .transform((items) => {
        const seen = new Set<string>();
        return items.filter((i) => !seen.has(i.toLowerCase()) && seen.add(i.toLowerCase()));
      })
      .nullable()
      .transform((items) => items ?? [])
      // Each item: not a formula, no comma (control characters are refused too, after inner spaces, line breaks included, are made single).
      .meta({ type: ["array", "null"], items: { type: "string", minLength: 1, maxLength: itemMax, pattern: `${NOT_A_FORMULA_PATTERN}[^,]*$` }, maxItems: max })
  );
}

export const colorsSchema = wordListSchema("colour", "colours", COLORS_MAX, COLOR_MAX).meta({
  description: `Up to ${COLORS_MAX} colours, the main one first (as the listing sites name them: primary, secondary, tertiary), each up to ${COLOR_MAX} characters without commas, not starting with =, +, - or @ followed by more; trimmed, repeats dropped ignoring case. Null or \`[]\` when not known.`,
  example: ["Black", "White"],
});

export const tagsSchema = wordListSchema("tag", "tags", TAGS_MAX, TAG_MAX).meta({
  description: `Up to ${TAGS_MAX} words describing the animal (as Petfinder's tags), each up to ${TAG_MAX} characters without commas, not starting with =, +, - or @ followed by more: trimmed, inner spaces made single, repeats dropped ignoring case (the first spelling is kept), order kept. Null or \`[]\` for none.`,
  example: ["Playful", "Loves car rides"],
});

export type CoatLength = z.infer<typeof coatLengthSchema>;

/** A yes / no / not known answer. */
export const answerSchema = (description: string) =>
  z
    .boolean({ error: () => "must be true, false or null" })
    .nullable()
    .meta({ description: `${description}: true, false, or null when not known.` });

export const ANSWER_DESCRIPTIONS = {
  mixedBreed: "A mix of breeds (rather than a purebred)",
  spayedNeutered: "Spayed or neutered",
  houseTrained: "House-trained (or litter-trained)",
  declawed: "Declawed (cats)",
  shotsCurrent: "Vaccinations up to date",
  specialNeeds: "Has special needs (medical or behavioural; `specialNeedsNotes` says which)",
} as const;

export const specialNeedsNotesSchema = optionalText(SPECIAL_NEEDS_NOTES_MAX, "there is nothing to say").meta({
  description: `What the special needs are, plain text up to ${SPECIAL_NEEDS_NOTES_MAX} characters; null when there is nothing to say.`,
  example: "Needs a daily thyroid pill.",
  minLength: 1,
  maxLength: SPECIAL_NEEDS_NOTES_MAX,
});

export const secondaryBreedSchema = optionalText(BREED_MAX, "there is none", "word").meta({
  description: `The second breed of a mix, 1 to ${BREED_MAX} characters after trimming, not starting with =, +, - or @ followed by more; or null.`,
  example: "Border collie",
  minLength: 1,
  maxLength: BREED_MAX,
  pattern: NOT_A_FORMULA_PATTERN,
});

export const amountCentsSchema = z
  .number({ error: (issue) => (issue.input === undefined ? "is required" : "must be a whole number of cents, e.g. 15000 for 150.00") })
  .int("must be a whole number of cents, e.g. 15000 for 150.00")
  .min(0, "must not be negative")
  .max(FEE_MAX_CENTS, `must be at most ${FEE_MAX_CENTS}`)
  .meta({
    description: `The fee in the currency's minor unit (cents: 15000 is 150.00 US dollars; for a currency without one, such as JPY, the whole amount), 0 to ${FEE_MAX_CENTS}.`,
    example: 15000,
  });

export const currencySchema = z
  .string({ error: () => "must be an ISO 4217 currency code such as USD" })
  .trim()
  .toUpperCase()
  .refine((c) => CURRENCIES.includes(c), "must be an ISO 4217 currency code such as USD, CAD or EUR")
  .meta({ description: "ISO 4217 currency code (case does not matter; returned in capitals).", example: "USD", pattern: "^[A-Za-z]{3}$" });

export const waivedSchema = z
  .boolean({ error: () => "must be true or false" })
  .meta({ description: "The fee is waived (a promotion, a sponsor): the animal goes home free.", example: false });

export const feeKeysError = (issue: { code: string }) =>
  issue.code === "unrecognized_keys" ? "is not one of amountCents, currency, waived" : 'must be an object such as {"amountCents": 15000} or null';

export const adoptionFeeInputSchema = z
  .strictObject(
    {
      amountCents: amountCentsSchema,
      currency: currencySchema.default(DEFAULT_CURRENCY).meta({ description: `ISO 4217 currency code; ${DEFAULT_CURRENCY} when omitted.` }),
      waived: waivedSchema.default(false).meta({ description: "The fee is waived; false when omitted." }),
    },
    { error: feeKeysError },
  )
  .meta({ id: "AdoptionFeeInput", description: "The adoption fee: `amountCents` is required, `currency` defaults to USD, `waived` to false." });

export const adoptionFeePatchSchema = z
  .strictObject({ amountCents: amountCentsSchema.optional(), currency: currencySchema.optional(), waived: waivedSchema.optional() }, { error: feeKeysError })
  .meta({
    id: "AdoptionFeePatch",
    description:
      'The parts of the fee to change (a merge: `{"waived": true}` keeps the amount). An animal without a fee needs `amountCents` (currency USD and waived false unless sent).',
  });

export const adoptionFeeSchema = z
  .object({ amountCents: amountCentsSchema, currency: z.string().meta({ description: "ISO 4217 currency code.", example: "USD" }), waived: waivedSchema })
  .meta({ id: "AdoptionFee", description: "The adoption fee." });

export const intakeDateSchema = pastDateSchema().meta({
  format: "date",
  description: "The day the animal came to the shelter (YYYY-MM-DD), not in the future; null when not known.",
  example: "2026-10-02",
});

export const videoUrlSchema = z
  .string({ error: () => "must be a string or null" })
  .trim()
  .refine((s) => s.length > 0, "must not be blank (send null when there is no video)")
  .refine((s) => parseVideoUrl(s) !== null, VIDEO_URL_RULE)
  .nullable()
  .meta({
    format: "uri",
    // The hosts and paths parseVideoUrl takes, as far as a pattern can say (the id's shape is checked after).
    pattern: "^\\s*https://(?:(?:www\\.|m\\.)?youtube\\.com/|youtu\\.be/|(?:www\\.)?vimeo\\.com/|player\\.vimeo\\.com/video/)",
    description:
      "A video of the animal: an https YouTube (`youtube.com/watch?v=…`, `youtu.be/…`, `youtube.com/shorts/…`, `youtube.com/embed/…`) or Vimeo (`vimeo.com/123456789`, `player.vimeo.com/video/123456789`) address; anything else is 400. The site plays it in the privacy-enhanced player, only when the visitor presses play. Null when there is none.",
    example: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    maxLength: VIDEO_URL_MAX,
  });

export const listOnOtherSitesSchema = z.boolean({ error: () => "must be true or false" }).meta({
  description: "Whether the animal is sent to the listing sites (Petfinder, Adopt-a-Pet, RescueGroups) the organisation uploads to. True unless switched off.",
  example: true,
});
