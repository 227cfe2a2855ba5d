import { z } from "zod";
import { intakeInputSchema } from "@/lib/stays/schemas";
import { now } from "@/lib/clock";
import { AGE_GROUPS, isoDay } from "@/lib/pets/age";
import { CURRENCIES, DEFAULT_CURRENCY, FEE_MAX_CENTS } from "@/lib/pets/adoption-fee";
import { COAT_LENGTHS, GOOD_WITH, PET_SEXES, PET_SIZES } from "@/lib/pets/profile";
import { parseVideoUrl, VIDEO_URL_MAX, VIDEO_URL_RULE } from "@/lib/pets/video";
import { nearSchema, withinNeedsNear, withinSchema } from "@/lib/organizations/geo";
import { categoryCoatLengthsSchema, categoryColorsSchema, coatLengthSchema } from "@/lib/listings/vocabulary/schemas";

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

export const petNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .refine((s) => s.length > 0, "must not be blank")
  .refine((s) => characterCount(s) <= NAME_MAX, `must be at most ${NAME_MAX} characters`)
  // PostgreSQL text cannot hold NUL, and a lone surrogate cannot be stored
  // as UTF-8: both would be silently changed, so they are refused instead.
  .refine((s) => !s.includes("\u0000") && s.isWellFormed(), "must not contain NUL or unpaired surrogate characters")
  .refine((s) => !looksLikeFormula(s), FORMULA_RULE)
  .meta({
    description: "The animal's name: 1 to 100 characters after trimming, any Unicode, not starting with =, +, - or @ followed by more (a spreadsheet would run it as a formula).",
    example: "Biscuit",
    minLength: 1,
    maxLength: NAME_MAX,
  });

// The profile: who the animal is, beyond a name. Every field is optional on
// create and on PATCH, and every Pet returns all of them (null where unknown).

export { COAT_LENGTHS, GOOD_WITH, PET_SEXES, PET_SIZES, type GoodWithKind } from "@/lib/pets/profile";
export const petSexSchema = z.enum(PET_SEXES).meta({ id: "PetSex", description: "The animal's sex; `unknown` when not given.", example: "female" });
export type PetSex = z.infer<typeof petSexSchema>;

export const petSizeSchema = z.enum(PET_SIZES).meta({ id: "PetSize", description: "Size when grown.", example: "medium" });
export type PetSize = z.infer<typeof petSizeSchema>;

export const ageGroupSchema = z.enum(AGE_GROUPS).meta({
  id: "AgeGroup",
  description: "Derived from `birthDate` on the day of the answer: `baby` under 1 year, `young` 1 to under 3, `adult` 3 to under 8, `senior` 8 and over.",
  example: "young",
});
export type { AgeGroup } from "@/lib/pets/age";


export const BREED_MAX = 100;
export const DESCRIPTION_MAX = 5000;
export const ALT_MAX = 300;
export const PHOTOS_MAX = 10;
/** The earliest birth date accepted: a tortoise may be old, a typo in the year should not pass. */
export const BIRTH_DATE_MIN = "1900-01-01";

/** Plain text stored as given: no NUL (PostgreSQL cannot hold it) and no unpaired surrogates (not storable as UTF-8). */
const storable = (s: string) => !s.includes("\u0000") && s.isWellFormed();

/**
 * A free-text field that may be null ("unknown"); blank text is refused rather than silently stored.
 * A `word` (a breed) is never a formula; free text (a description) may start with anything.
 */
const optionalText = (max: number, what: string, kind: "text" | "word" = "text") =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string or null") })
    .trim()
    .refine((s) => s.length > 0, `must not be blank (send null when ${what} is unknown)`)
    .refine((s) => characterCount(s) <= max, `must be at most ${max} characters`)
    .refine(storable, "must not contain NUL or unpaired surrogate characters")
    .refine((s) => kind === "text" || !looksLikeFormula(s), FORMULA_RULE)
    .nullable();

export const breedSchema = optionalText(BREED_MAX, "the breed", "word").meta({
  description: `1 to ${BREED_MAX} characters after trimming, not starting with =, +, - or @ followed by more; or null when unknown.`,
  example: "Labrador mix",
  minLength: 1,
  maxLength: BREED_MAX,
});

export const descriptionSchema = optionalText(DESCRIPTION_MAX, "there is nothing to say").meta({
  description: `Plain text, up to ${DESCRIPTION_MAX} characters, line breaks kept; never interpreted as HTML. Null when there is none.`,
  example: "Loves long walks and naps in the sun.\nShy with new people at first.",
  minLength: 1,
  maxLength: DESCRIPTION_MAX,
});

/** Today as a calendar day, in the time zone furthest ahead (UTC+14): a birth date someone picks as "today" anywhere is not "in the future". */
function latestToday(): string {
  return isoDay(new Date(now().getTime() + 14 * 3600_000));
}

/** A real calendar day as YYYY-MM-DD, from BIRTH_DATE_MIN to today, or null when unknown. */
const pastDateSchema = () =>
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

const goodWithAnswer = (kind: string) =>
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
    { error: (issue) => (issue.code === "unrecognized_keys" ? "is not one of children, dogs, cats" : "must be an object such as {\"children\": true}") },
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

const noControlCharacters = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);
/** The first characters of a refused value, to say which one it was. */
const quoted = (value: unknown) => {
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
  });

/**
 * A short list of words (colours, tags): each trimmed with its inner runs
 * of spaces made one, not blank, at most `itemMax` characters, no commas
 * (the listing sites' files list them comma-separated); repeats dropped
 * ignoring case (the first spelling kept), order kept. null (or leaving it
 * out at creation) is the empty list: nothing known.
 */
function wordListSchema(noun: string, plural: string, max: number, itemMax: number) {
  const item = z
    .string({ error: () => `each ${noun} must be a string` })
    .transform((s) => s.trim().replace(/\s+/g, " "))
    .refine((s) => s.length > 0, `each ${noun} must not be blank`)
    .refine((s) => characterCount(s) <= itemMax, { error: (issue) => `each ${noun} must be at most ${itemMax} characters (${quoted(issue.input)})` })
    .refine((s) => !s.includes(","), { error: (issue) => `each ${noun} must be one ${noun}, without commas (${quoted(issue.input)})` })
    .refine((s) => noControlCharacters(s) && s.isWellFormed(), `each ${noun} must not contain control characters or unpaired surrogates`)
    .refine((s) => !looksLikeFormula(s), `each ${noun} ${FORMULA_RULE}`);
  return z
    .array(item, { error: () => `must be a list of up to ${max} ${plural}, or null` })
    .max(max, `must list at most ${max} ${plural}`)
    .transform((items) => {
      const seen = new Set<string>();
      return items.filter((i) => !seen.has(i.toLowerCase()) && seen.add(i.toLowerCase()));
    })
    .nullable()
    .transform((items) => items ?? [])
    .meta({ type: ["array", "null"], items: { type: "string", minLength: 1, maxLength: itemMax }, maxItems: max });
}

export const colorsSchema = wordListSchema("colour", "colours", COLORS_MAX, COLOR_MAX).meta({
  description: `Up to ${COLORS_MAX} colours, the main one first (as the listing sites name them: primary, secondary, tertiary), each up to ${COLOR_MAX} characters without commas, not starting with =, +, - or @ followed by more; trimmed, repeats dropped ignoring case. Null or \`[]\` when not known.`,
  example: ["Black", "White"],
});

export const tagsSchema = wordListSchema("tag", "tags", TAGS_MAX, TAG_MAX).meta({
  description: `Up to ${TAGS_MAX} words describing the animal (as Petfinder's tags), each up to ${TAG_MAX} characters without commas, not starting with =, +, - or @ followed by more: trimmed, inner spaces made single, repeats dropped ignoring case (the first spelling is kept), order kept. Null or \`[]\` for none.`,
  example: ["Playful", "Loves car rides"],
});

export { coatLengthSchema };
export type CoatLength = z.infer<typeof coatLengthSchema>;

/** A yes / no / not known answer. */
const answerSchema = (description: string) =>
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
});

const amountCentsSchema = z
  .number({ error: (issue) => (issue.input === undefined ? "is required" : "must be a whole number of cents, e.g. 15000 for 150.00") })
  .int("must be a whole number of cents, e.g. 15000 for 150.00")
  .min(0, "must not be negative")
  .max(FEE_MAX_CENTS, `must be at most ${FEE_MAX_CENTS}`)
  .meta({
    description: `The fee in the currency's minor unit (cents: 15000 is 150.00 US dollars; for a currency without one, such as JPY, the whole amount), 0 to ${FEE_MAX_CENTS}.`,
    example: 15000,
  });

const currencySchema = z
  .string({ error: () => "must be an ISO 4217 currency code such as USD" })
  .trim()
  .toUpperCase()
  .refine((c) => CURRENCIES.includes(c), "must be an ISO 4217 currency code such as USD, CAD or EUR")
  .meta({ description: "ISO 4217 currency code (case does not matter; returned in capitals).", example: "USD", pattern: "^[A-Za-z]{3}$" });

const waivedSchema = z.boolean({ error: () => "must be true or false" }).meta({ description: "The fee is waived (a promotion, a sponsor): the animal goes home free.", example: false });

const feeKeysError = (issue: { code: string }) =>
  issue.code === "unrecognized_keys" ? "is not one of amountCents, currency, waived" : "must be an object such as {\"amountCents\": 15000} or null";

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
    description: "The parts of the fee to change (a merge: `{\"waived\": true}` keeps the amount). An animal without a fee needs `amountCents` (currency USD and waived false unless sent).",
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
    description:
      "A video of the animal: an https YouTube (`youtube.com/watch?v=…`, `youtu.be/…`, `youtube.com/shorts/…`, `youtube.com/embed/…`) or Vimeo (`vimeo.com/123456789`, `player.vimeo.com/video/123456789`) address; anything else is 400. The site plays it in the privacy-enhanced player, only when the visitor presses play. Null when there is none.",
    example: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    maxLength: VIDEO_URL_MAX,
  });

export const listOnOtherSitesSchema = z.boolean({ error: () => "must be true or false" }).meta({
  description: "Whether the animal is sent to the listing sites (Petfinder, Adopt-a-Pet, RescueGroups) the organisation uploads to. True unless switched off.",
  example: true,
});

export const photoSchema = z
  .object({
    id: idSchema.meta({ description: "The photo's identifier (for DELETE and `photoOrder`)." }),
    alt: z.string().nullable().meta({ description: "Text describing the photo for people who cannot see it; null when none was given.", example: "Biscuit asleep on a blue blanket" }),
    width: z.number().int().min(1).meta({ description: "Width of the photo as displayed (after its EXIF orientation), in pixels.", example: 4000 }),
    height: z.number().int().min(1).meta({ description: "Height of the photo as displayed, in pixels.", example: 3000 }),
    placeholder: z.string().meta({ description: "A tiny blurred version as a `data:image/webp;base64,...` URI, to show while the photo loads.", example: "data:image/webp;base64,UklGRlIAAABXRUJQVlA4..." }),
    urls: z
      .record(z.string().regex(/^[0-9]+$/), z.string())
      .meta({
        description: "The photo resized to each width (about 320, 640 and 1280 pixels, never larger than the original), WebP, keyed by width. The files never change: cache them forever. No API key is needed to fetch them.",
        example: { "320": "https://petstore.example/photos/3q2-7w8Xx0y5K8mH0K7m9vXnq7fO4dWQ8p3ZrRkS9Ts.webp" },
      }),
  })
  .meta({ id: "Photo", description: "A photo of an animal." });
export type Photo = z.infer<typeof photoSchema>;

/** The listing-site fields as a create takes them: each left out is unknown (an empty list for colours and tags). */
const listingProfileInput = {
  externalId: externalIdSchema.default(null),
  secondaryBreed: secondaryBreedSchema.default(null),
  mixedBreed: answerSchema(ANSWER_DESCRIPTIONS.mixedBreed).default(null),
  colors: colorsSchema.default([]).meta({ default: [] }),
  coatLength: coatLengthSchema.nullable().default(null).meta({ description: "The coat's length; null when omitted (not known)." }),
  spayedNeutered: answerSchema(ANSWER_DESCRIPTIONS.spayedNeutered).default(null),
  houseTrained: answerSchema(ANSWER_DESCRIPTIONS.houseTrained).default(null),
  declawed: answerSchema(ANSWER_DESCRIPTIONS.declawed).default(null),
  shotsCurrent: answerSchema(ANSWER_DESCRIPTIONS.shotsCurrent).default(null),
  specialNeeds: answerSchema(ANSWER_DESCRIPTIONS.specialNeeds).default(null),
  specialNeedsNotes: specialNeedsNotesSchema.default(null),
  adoptionFee: adoptionFeeInputSchema.nullable().default(null).meta({ description: "The adoption fee; null when omitted (not known)." }),
  intakeDate: intakeDateSchema.default(null),
  videoUrl: videoUrlSchema.default(null),
  tags: tagsSchema.default([]).meta({ default: [] }),
};

export const newPetSchema = z
  .strictObject({
    name: petNameSchema,
    categoryId: idSchema.meta({ description: "Identifier of the category the animal belongs to (see GET /categories)." }),
    organizationId: idSchema.optional().meta({
      description:
        "The organisation (shelter) the animal is at. An organisation's key may leave it out (its own organisation) and may not name another (403); a platform key must name one.",
    }),
    status: petStatusSchema.default("available").meta({ description: "Availability status; `available` when omitted." }),
    sex: petSexSchema.default("unknown").meta({ description: "`unknown` when omitted." }),
    size: petSizeSchema.nullable().default(null).meta({ description: "Size when grown; null when omitted." }),
    birthDate: birthDateSchema.default(null),
    breed: breedSchema.default(null),
    description: descriptionSchema.default(null),
    goodWith: goodWithInputSchema.default({}),
    ...listingProfileInput,
    listOnOtherSites: listOnOtherSitesSchema.default(true).meta({ description: "Whether the animal is sent to the listing sites the organisation uploads to; true when omitted." }),
    intake: intakeInputSchema.optional().meta({
      description: "How and when the animal came in: its first stay (GET /v1/pets/{petId}/stays). When omitted: `otherIntake`, at the midnight of `intakeDate` in the organisation's time zone when given, else now.",
    }),
  })
  .meta({ id: "NewPet", description: "Request body for creating an animal. Only `name` and `categoryId` are required. Unknown fields (including `id`) are refused (400 `invalid_body` naming each)." });
export type NewPet = z.infer<typeof newPetSchema>;

/**
 * The listing fields as a create leaves them when none is sent: unknown, no
 * colours nor tags, listed on other sites. Parsed when first asked for, not
 * when the module loads: a browser page must configure zod first
 * (lib/zod-jitless.ts).
 */
export function listingDefaults(): Pick<NewPet, ListingField> {
  const pet = newPetSchema.parse({ name: "-", categoryId: 1 });
  return Object.fromEntries(LISTING_FIELDS.map((field) => [field, pet[field]])) as Pick<NewPet, ListingField>;
}

let createDefaults: Pick<NewPet, ListingField> | undefined;

/**
 * A create as its Idempotency-Key compares it: the listing fields left at
 * their defaults are left out, so a request retried across the deploy that
 * added them is still the same request (and replays its first answer).
 */
export function idempotentNewPet(pet: NewPet): Partial<NewPet> {
  const defaults = (createDefaults ??= listingDefaults());
  return Object.fromEntries(
    Object.entries(pet).filter(([field, value]) => !(field in defaults) || JSON.stringify(value) !== JSON.stringify(defaults[field as ListingField])),
  );
}

/** What a form holds before parsing: status may still be unset. */
export type NewPetInput = z.input<typeof newPetSchema>;

export const petSchema = z
  .object({
    id: idSchema.meta({ description: "Unique identifier assigned by the service on creation." }),
    name: z.string().meta({ description: "The animal's name.", example: "Biscuit" }),
    categoryId: idSchema.meta({ description: "Identifier of the category the animal belongs to." }),
    organizationId: idSchema.meta({ description: "The organisation (shelter or rescue) the animal is at: GET /organizations/{organizationId} for its address and contact." }),
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
    sex: petSexSchema,
    size: petSizeSchema.nullable(),
    birthDate: z.string().nullable().meta({ format: "date", description: "Date of birth (YYYY-MM-DD), possibly an estimate; null when unknown.", example: "2024-03-15" }),
    ageGroup: ageGroupSchema.nullable().meta({ description: "Derived from `birthDate` on the day of the answer (so it changes as the animal ages); null without a birth date." }),
    breed: z.string().nullable().meta({ example: "Labrador mix" }),
    description: z.string().nullable().meta({ description: "Plain text with line breaks; never HTML." }),
    goodWith: goodWithSchema,
    externalId: z.string().nullable().meta({ description: "The shelter's own identifier for the animal, unique within its organisation; null when it has none.", example: "A123" }),
    secondaryBreed: z.string().nullable().meta({ description: "The second breed of a mix; null when none or not known.", example: "Border collie" }),
    mixedBreed: answerSchema(ANSWER_DESCRIPTIONS.mixedBreed),
    colors: z.array(z.string()).meta({ description: "Up to 3 colours, the main one first; empty when not known.", example: ["Black", "White"] }),
    coatLength: coatLengthSchema.nullable().meta({ description: "The coat's length; null when not known." }),
    spayedNeutered: answerSchema(ANSWER_DESCRIPTIONS.spayedNeutered),
    houseTrained: answerSchema(ANSWER_DESCRIPTIONS.houseTrained),
    declawed: answerSchema(ANSWER_DESCRIPTIONS.declawed),
    shotsCurrent: answerSchema(ANSWER_DESCRIPTIONS.shotsCurrent),
    specialNeeds: answerSchema(ANSWER_DESCRIPTIONS.specialNeeds),
    specialNeedsNotes: z.string().nullable().meta({ description: "What the special needs are; null when nothing is said.", example: "Needs a daily thyroid pill." }),
    adoptionFee: adoptionFeeSchema.nullable().meta({ description: "The adoption fee; null when not known." }),
    intakeDate: z.string().nullable().meta({ format: "date", description: "The day the animal came to the shelter (YYYY-MM-DD); null when not known.", example: "2026-10-02" }),
    videoUrl: z.string().nullable().meta({ format: "uri", description: "A YouTube or Vimeo address of a video of the animal; null when there is none.", example: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" }),
    tags: z.array(z.string()).meta({ description: "Words describing the animal (up to 10); empty when none.", example: ["Playful", "Loves car rides"] }),
    listOnOtherSites: listOnOtherSitesSchema,
    photos: z.array(photoSchema).meta({ description: "The animal's photos in order: the first is the cover. Empty when there are none." }),
    distanceKm: z
      .number()
      .optional()
      .meta({ description: "Great-circle distance in kilometres (one decimal) from `near` to the animal's organisation. Only in answers to a list with `near`.", example: 12.4 }),
  })
  .meta({ id: "Pet", description: "An animal as returned." });
export type Pet = z.infer<typeof petSchema>;

/** The listing-site fields of a Pet, in the order it shows them. */
export const LISTING_FIELDS = [
  "externalId",
  "secondaryBreed",
  "mixedBreed",
  "colors",
  "coatLength",
  "spayedNeutered",
  "houseTrained",
  "declawed",
  "shotsCurrent",
  "specialNeeds",
  "specialNeedsNotes",
  "adoptionFee",
  "intakeDate",
  "videoUrl",
  "tags",
  "listOnOtherSites",
] as const;
export type ListingField = (typeof LISTING_FIELDS)[number];

/** The fields an animal is made of, without id and version: what a change is about. */
export const PET_FIELDS = [
  "name",
  "categoryId",
  "status",
  "sex",
  "size",
  "birthDate",
  "breed",
  "description",
  "goodWith",
  ...LISTING_FIELDS,
  "photos",
] as const;
export type PetField = (typeof PET_FIELDS)[number];
/** What a change may say an animal was before (`previous` of an event, `before` of a history entry). */
export const petFieldsSchema = petSchema.pick({
  name: true,
  categoryId: true,
  status: true,
  sex: true,
  size: true,
  birthDate: true,
  breed: true,
  description: true,
  goodWith: true,
  ...(Object.fromEntries(LISTING_FIELDS.map((f) => [f, true])) as Record<ListingField, true>),
  photos: true,
});

/**
 * PATCH /v1/pets/{petId}: a JSON merge patch (RFC 7396) of the NewPet fields,
 * each validated exactly as on creation. Unlike NewPet, unknown fields are
 * refused rather than ignored: a typo in a change must not pass as a no-op.
 * null would mean "remove" in a merge patch, and no field can be removed.
 */
export const PATCH_FIELDS = ["name", "categoryId", "status", "sex", "size", "birthDate", "breed", "description", "goodWith", ...LISTING_FIELDS, "photoOrder"] as const;

export const petPatchSchema = z
  .strictObject(
    {
      name: petNameSchema.optional(),
      categoryId: idSchema.optional().meta({ description: "Identifier of the category (see GET /categories)." }),
      status: petStatusSchema.optional(),
      sex: petSexSchema.optional(),
      size: petSizeSchema.nullable().optional().meta({ description: "Size when grown; null to say it is unknown." }),
      birthDate: birthDateSchema.optional(),
      breed: breedSchema.optional(),
      description: descriptionSchema.optional(),
      goodWith: goodWithInputSchema
        .nullable()
        .optional()
        .meta({ description: "The answers to change (a merge: `{\"cats\": true}` leaves children and dogs as they are); null sets all three to unknown." }),
      externalId: externalIdSchema.optional(),
      secondaryBreed: secondaryBreedSchema.optional(),
      mixedBreed: answerSchema(ANSWER_DESCRIPTIONS.mixedBreed).optional(),
      colors: colorsSchema.optional().meta({ description: "The colours, replacing the list (null or `[]` clears it)." }),
      coatLength: coatLengthSchema.nullable().optional().meta({ description: "The coat's length; null to say it is unknown." }),
      spayedNeutered: answerSchema(ANSWER_DESCRIPTIONS.spayedNeutered).optional(),
      houseTrained: answerSchema(ANSWER_DESCRIPTIONS.houseTrained).optional(),
      declawed: answerSchema(ANSWER_DESCRIPTIONS.declawed).optional(),
      shotsCurrent: answerSchema(ANSWER_DESCRIPTIONS.shotsCurrent).optional(),
      specialNeeds: answerSchema(ANSWER_DESCRIPTIONS.specialNeeds).optional(),
      specialNeedsNotes: specialNeedsNotesSchema.optional(),
      adoptionFee: adoptionFeePatchSchema.nullable().optional().meta({ description: "The parts of the fee to change (a merge); null makes the fee unknown." }),
      intakeDate: intakeDateSchema.optional(),
      videoUrl: videoUrlSchema.optional(),
      tags: tagsSchema.optional().meta({ description: "The tags, replacing the list (null or `[]` clears it)." }),
      listOnOtherSites: listOnOtherSitesSchema.optional(),
      photoOrder: z
        .array(idSchema, { error: () => "must be an array of photo ids" })
        .max(PHOTOS_MAX, `must list at most ${PHOTOS_MAX} photos`)
        .refine((ids) => new Set(ids).size === ids.length, "must not list a photo twice")
        .optional()
        .meta({ description: "The animal's photo ids in their new order (every one of them, each once); the first becomes the cover.", example: [12, 9] }),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `is not a field that can be changed (${PATCH_FIELDS.join(", ")})` : undefined) },
  )
  .refine((patch) => PATCH_FIELDS.some((field) => patch[field] !== undefined), "must change at least one field")
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
    colors: categoryColorsSchema,
    coatLengths: categoryCoatLengthsSchema,
  })
  .meta({ id: "Category", description: "A group of animals, with the words the listing sites describe its animals in (`GET /categories/{categoryId}/breeds` lists its breeds)." });
export type Category = z.infer<typeof categorySchema>;

export const categoriesSchema = z.array(categorySchema).meta({ id: "Categories" });

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
    else if (ids.some((id) => characterCount(id) > EXTERNAL_ID_MAX)) ctx.addIssue({ code: "custom", message: `each id must be at most ${EXTERNAL_ID_MAX} characters` });
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

export const listPetsQuerySchema = z.object({
  limit: queryInteger(1, LIMIT_MAX, "int32")
    .default(LIMIT_DEFAULT)
    .meta({ description: "Maximum number of animals returned (1 to 100).", example: 20, default: LIMIT_DEFAULT }),
  status: petStatusSchema.optional().meta({ description: "Only animals with this status." }),
  categoryId: queryInteger(1, Number.MAX_SAFE_INTEGER)
    .optional()
    .meta({ description: "Only animals of this category.", example: 1 }),
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
  size: choiceList(PET_SIZES).optional().meta({ description: "Only animals of these sizes (any of them), e.g. `small,medium`.", example: ["small", "medium"] }),
  age: choiceList(AGE_GROUPS).optional().meta({ description: "Only animals in these age groups (any of them), computed from `birthDate` on the day of the request, e.g. `baby,young`.", example: ["baby", "young"] }),
  goodWith: choiceList(GOOD_WITH).optional().meta({ description: "Only animals known to get on with all of these, e.g. `children,cats`.", example: ["children", "cats"] }),
  externalId: externalIdListSchema.optional().meta({
    description: `Only animals with these \`externalId\`s (the shelters' own ids; comma-separated, at most ${IDS_MAX}), e.g. \`A123,A124\`. The same id may belong to animals of two organisations: add \`organizationId\` for one shelter's.`,
    example: ["A123", "A124"],
  }),
  houseTrained: queryBoolean().optional().meta({ description: "`true`: only animals known to be house-trained (`false`: known not to be). Unknown answers match neither.", example: true }),
  specialNeeds: queryBoolean().optional().meta({ description: "`true`: only animals known to have special needs; `false`: only those known not to. Unknown answers match neither.", example: false }),
  spayedNeutered: queryBoolean().optional().meta({ description: "`true`: only animals known to be spayed or neutered; `false`: known not to be. Unknown answers match neither.", example: true }),
  coatLength: choiceList(COAT_LENGTHS).optional().meta({ description: "Only animals with these coat lengths (any of them), e.g. `short,long`.", example: ["short", "long"] }),
  cursor: z
    .string()
    .min(1, "must not be empty")
    .optional()
    .meta({ description: "Opaque paging cursor, taken from a `Link` header; never built by hand." }),
}).superRefine(withinNeedsNear);
export type ListPetsQuery = z.infer<typeof listPetsQuerySchema>;

export const petIdParamsSchema = z.object({
  petId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the animal.", example: 1 }),
});

export const photoParamsSchema = z.object({
  petId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the animal.", example: 1 }),
  photoId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the photo.", example: 7 }),
});

/** `alt` of an upload (a multipart field, or `?alt=` with a raw image body). */
export const photoAltSchema = z
  .string()
  .trim()
  .refine((s) => characterCount(s) <= ALT_MAX, `must be at most ${ALT_MAX} characters`)
  .refine(storable, "must not contain NUL or unpaired surrogate characters")
  .transform((s) => s || null)
  .meta({ description: `Text describing the photo for people who cannot see it, up to ${ALT_MAX} characters.`, maxLength: ALT_MAX, example: "Biscuit asleep on a blue blanket" });

export const photoUploadQuerySchema = z.object({
  alt: photoAltSchema.optional(),
});

export const photoPatchSchema = z
  .strictObject(
    { alt: photoAltSchema.nullable().meta({ description: "The new alt text; null or empty to remove it." }) },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "is not a field that can be changed (alt)" : undefined) },
  )
  .meta({ id: "PhotoPatch", description: "A photo's alt text. To reorder photos, PATCH the animal's `photoOrder`." });
export type PhotoPatch = z.infer<typeof photoPatchSchema>;
