import { z } from "zod";
import { STORABLE_ISSUE, storable } from "@/lib/core/text";
import { ALT_MAX } from "@/lib/pets/schemas/fields";
import { characterCount, queryInteger } from "@/lib/core/schemas";

// Path parameters (an animal, a photo) and the photo upload's and edit's inputs.

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
  .refine(storable, STORABLE_ISSUE)
  .transform((s) => s || null)
  .meta({
    description: `Text describing the photo for people who cannot see it, up to ${ALT_MAX} characters.`,
    maxLength: ALT_MAX,
    example: "Biscuit asleep on a blue blanket",
  });

export const photoUploadQuerySchema = z.object({
  alt: photoAltSchema.optional(),
});

export const photoPatchSchema = z
  .strictObject(
    { alt: photoAltSchema.nullable().meta({ description: "The new alt text; null or empty to remove it." }) },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "is not a field that can be changed (alt)" : undefined) },
  )
  .meta({ id: "PhotoPatch", description: "A photo's alt text. To reorder photos, PATCH the animal's `photoOrder`." });
