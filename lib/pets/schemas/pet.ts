import { z } from "zod";
import { intakeInputSchema } from "@/lib/stays/schemas";
import { categoryCoatLengthsSchema, categoryColorsSchema, coatLengthSchema } from "@/lib/pets/schemas/vocabulary";
import {
  petStatusSchema,
  petNameSchema,
  petSexSchema,
  petSizeSchema,
  ageGroupSchema,
  PHOTOS_MAX,
  breedSchema,
  descriptionSchema,
  birthDateSchema,
  goodWithInputSchema,
  goodWithSchema,
  externalIdSchema,
  colorsSchema,
  tagsSchema,
  answerSchema,
  ANSWER_DESCRIPTIONS,
  specialNeedsNotesSchema,
  secondaryBreedSchema,
  adoptionFeeInputSchema,
  adoptionFeePatchSchema,
  adoptionFeeSchema,
  intakeDateSchema,
  videoUrlSchema,
  listOnOtherSitesSchema,
} from "@/lib/pets/schemas/fields";
import { idSchema } from "@/lib/core/schemas";

// The animal as a whole: its photo, the create and PATCH bodies, the Pet as
// returned, the fields a change is about, and its category.

export const photoSchema = z
  .object({
    id: idSchema.meta({ description: "The photo's identifier (for DELETE and `photoOrder`)." }),
    alt: z
      .string()
      .nullable()
      .meta({ description: "Text describing the photo for people who cannot see it; null when none was given.", example: "Biscuit asleep on a blue blanket" }),
    width: z.number().int().min(1).meta({ description: "Width of the photo as displayed (after its EXIF orientation), in pixels.", example: 4000 }),
    height: z.number().int().min(1).meta({ description: "Height of the photo as displayed, in pixels.", example: 3000 }),
    placeholder: z.string().meta({
      description: "A tiny blurred version as a `data:image/webp;base64,...` URI, to show while the photo loads.",
      example: "data:image/webp;base64,UklGRlIAAABXRUJQVlA4...",
    }),
    urls: z.record(z.string().regex(/^[0-9]+$/), z.string()).meta({
      description:
        "The photo resized to each width (about 320, 640 and 1280 pixels, never larger than the original), WebP, keyed by width. The files never change: cache them forever. No API key is needed to fetch them.",
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
    listOnOtherSites: listOnOtherSitesSchema
      .default(true)
      .meta({ description: "Whether the animal is sent to the listing sites the organisation uploads to; true when omitted." }),
    intake: intakeInputSchema.optional().meta({
      description:
        "How and when the animal came in: its first stay (GET /v1/pets/{petId}/stays). When omitted: `otherIntake`, at the midnight of `intakeDate` in the organisation's time zone when given, else now.",
    }),
  })
  .meta({
    id: "NewPet",
    description:
      "Request body for creating an animal. Only `name` and `categoryId` are required. Unknown fields (including `id`) are refused (400 `invalid_body` naming each).",
  });
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

/** Where a foster home is, as adopters may know it (docs/decisions/028): never a name, street, postcode or contact. */
const fosterHomeSchema = z
  .object({
    city: z.string().nullable().meta({ description: "The foster home's city; null when not known.", example: "Brooklyn" }),
    region: z.string().nullable().meta({ description: "Its state or region; null when not known.", example: "NY" }),
  })
  .meta({ id: "FosterHome", description: "The city and region of the foster home an animal lives in." });

export const petSchema = z
  .object({
    id: idSchema.meta({ description: "Unique identifier assigned by the service on creation." }),
    name: z.string().meta({ description: "The animal's name.", example: "Biscuit" }),
    categoryId: idSchema.meta({ description: "Identifier of the category the animal belongs to." }),
    organizationId: idSchema.meta({
      description: "The organisation (shelter or rescue) the animal is at: GET /organizations/{organizationId} for its address and contact.",
    }),
    status: petStatusSchema,
    // In the body as well as in the ETag header: a list answer has one ETag
    // for many animals, so clients (and the site's edit form) read each
    // animal's version here to send it back in If-Match.
    version: z.number().int().min(1).meta({
      description:
        'Increases with every change. The animal\'s ETag is this number in quotes (`"3"`); send it in `If-Match` to change only the version you saw.',
      example: 1,
    }),
    sex: petSexSchema,
    size: petSizeSchema.nullable(),
    birthDate: z
      .string()
      .nullable()
      .meta({ format: "date", description: "Date of birth (YYYY-MM-DD), possibly an estimate; null when unknown.", example: "2024-03-15" }),
    ageGroup: ageGroupSchema
      .nullable()
      .meta({ description: "Derived from `birthDate` on the day of the answer (so it changes as the animal ages); null without a birth date." }),
    breed: z.string().nullable().meta({ example: "Labrador mix" }),
    description: z.string().nullable().meta({ description: "Plain text with line breaks; never HTML." }),
    goodWith: goodWithSchema,
    externalId: z
      .string()
      .nullable()
      .meta({ description: "The shelter's own identifier for the animal, unique within its organisation; null when it has none.", example: "A123" }),
    secondaryBreed: z.string().nullable().meta({ description: "The second breed of a mix; null when none or not known.", example: "Border collie" }),
    mixedBreed: answerSchema(ANSWER_DESCRIPTIONS.mixedBreed),
    colors: z.array(z.string()).meta({ description: "Up to 3 colours, the main one first; empty when not known.", example: ["Black", "White"] }),
    coatLength: coatLengthSchema.nullable().meta({ description: "The coat's length; null when not known." }),
    spayedNeutered: answerSchema(ANSWER_DESCRIPTIONS.spayedNeutered),
    houseTrained: answerSchema(ANSWER_DESCRIPTIONS.houseTrained),
    declawed: answerSchema(ANSWER_DESCRIPTIONS.declawed),
    shotsCurrent: answerSchema(ANSWER_DESCRIPTIONS.shotsCurrent),
    specialNeeds: answerSchema(ANSWER_DESCRIPTIONS.specialNeeds),
    specialNeedsNotes: z
      .string()
      .nullable()
      .meta({ description: "What the special needs are; null when nothing is said.", example: "Needs a daily thyroid pill." }),
    adoptionFee: adoptionFeeSchema.nullable().meta({ description: "The adoption fee; null when not known." }),
    intakeDate: z
      .string()
      .nullable()
      .meta({ format: "date", description: "The day the animal came to the shelter (YYYY-MM-DD); null when not known.", example: "2026-10-02" }),
    videoUrl: z.string().nullable().meta({
      format: "uri",
      description: "A YouTube or Vimeo address of a video of the animal; null when there is none.",
      example: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    }),
    tags: z.array(z.string()).meta({ description: "Words describing the animal (up to 10); empty when none.", example: ["Playful", "Loves car rides"] }),
    listOnOtherSites: listOnOtherSitesSchema,
    photos: z.array(photoSchema).meta({ description: "The animal's photos in order: the first is the cover. Empty when there are none." }),
    inFosterHome: z.boolean().meta({
      description:
        "True while the animal lives in a volunteer's foster home rather than at its organisation's place (it is still in the organisation's care, and adopted through it).",
      example: false,
    }),
    fosterHome: fosterHomeSchema.nullable().meta({
      description:
        "Where the foster home is, as adopters may know it: its city and region, never more. Null when the animal is not in a foster home, or when its organisation shows its own place instead (the Organization's `fosterLocation`).",
    }),
    distanceKm: z.number().optional().meta({
      description:
        "Great-circle distance in kilometres (one decimal) from `near` to where the animal is: its foster home's ZIP code centre when it is in a foster home its organisation shows (`fosterHome` not null) and that home has one, otherwise its organisation. Only in answers to a list with `near`.",
      example: 12.4,
    }),
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
export const PATCH_FIELDS = [
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
  "photoOrder",
] as const;

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
        .meta({ description: 'The answers to change (a merge: `{"cats": true}` leaves children and dogs as they are); null sets all three to unknown.' }),
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
  .meta({
    id: "Category",
    description: "A group of animals, with the words the listing sites describe its animals in (`GET /categories/{categoryId}/breeds` lists its breeds).",
  });
export type Category = z.infer<typeof categorySchema>;

export const categoriesSchema = z.array(categorySchema).meta({ id: "Categories" });
