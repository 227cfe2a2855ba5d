import { z } from "zod";
import { idSchema, queryInteger } from "@/lib/core/schemas";
import { STORABLE_ISSUE, storable } from "@/lib/core/text";
import { blackoutsSchema, capacitySchema, speciesListSchema } from "@/lib/people/schemas";
import { SPECIES } from "@/lib/reports/schemas";

// The foster's private page: what staff send (the link), what the page shows
// the foster (their own animals, their capacity, species and blackouts), and
// what the foster may change or say there. The token in the path is the
// credential, as an applicant's is (lib/applications).

/** How long a foster's link works: a season of fostering; staff send a new one (which replaces it) whenever asked. */
export const FOSTER_LINK_DAYS = 90;
export const NOTE_MAX = 2000;

/** The private link's token: 32 random bytes in base64url (256 bits). */
export const fosterTokenParamsSchema = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "is not a foster link")
    .meta({ description: "The token of the foster's private link." }),
});

/** What the foster may change on their page. */
export const fosterPreferencesPatchSchema = z
  // Held to the rules staff's changes are (lib/people/schemas.ts): neither can save what the other's form would refuse.
  .strictObject({ capacity: capacitySchema.optional(), species: speciesListSchema.optional(), blackouts: blackoutsSchema.optional() })
  .refine((p) => p.capacity !== undefined || p.species !== undefined || p.blackouts !== undefined, "must change at least one of capacity, species, blackouts")
  .meta({ id: "FosterPreferencesPatch", description: "The foster's own capacity, species and blackout days; the fields left out keep their values." });
export type FosterPreferencesPatch = z.infer<typeof fosterPreferencesPatchSchema>;

export const newFosterNoteSchema = z
  .strictObject({
    petId: idSchema.meta({ description: "One of the foster's animals now." }),
    text: z
      .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") })
      .trim()
      .min(1, "is required")
      .max(NOTE_MAX, `must be at most ${NOTE_MAX} characters`)
      .refine(storable, STORABLE_ISSUE)
      .meta({ description: `Up to ${NOTE_MAX} characters of plain text, for the organisation's staff.`, example: "Biscuit ate well and slept all afternoon." }),
  })
  .meta({ id: "NewFosterNote", description: "A note about an animal in the foster's care: kept for the organisation's staff, who are told by email." });
export type NewFosterNote = z.infer<typeof newFosterNoteSchema>;

/** One animal in the foster's care, as their page shows it: never anything of another foster. */
export const fosterAnimalSchema = z.object({
  id: idSchema,
  name: z.string(),
  photo: z.object({ url: z.string(), alt: z.string().nullable(), width: z.number().int(), height: z.number().int() }).nullable(),
  since: z.string().meta({ format: "date-time", description: "When the animal came to the foster." }),
  expectedBack: z.string().nullable().meta({ format: "date", description: "The day staff expect the animal back; null when not said." }),
});

export const fosterViewSchema = z
  .object({
    name: z.string().nullable(),
    organization: z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
    status: z.enum(["active", "paused"]),
    capacity: z.number().int(),
    species: z.array(z.enum(SPECIES)),
    blackouts: z.array(z.object({ from: z.string(), to: z.string() })),
    placedCount: z.number().int(),
    room: z.number().int(),
    readyAt: z.string().nullable().meta({ format: "date-time", description: 'When the foster last said "ready for another"; null: not said.' }),
    animals: z.array(fosterAnimalSchema),
    expiresAt: z.string().meta({ format: "date-time", description: "When this link stops working." }),
  })
  .meta({ id: "FosterView", description: "The foster's own page: their animals now and what they told the organisation." });
export type FosterView = z.infer<typeof fosterViewSchema>;

export const fosterNoteSchema = z.object({
  id: idSchema,
  petId: idSchema,
  petName: z.string(),
  text: z.string().nullable(),
  createdAt: z.string().meta({ format: "date-time" }),
});
export type FosterNote = z.infer<typeof fosterNoteSchema>;

export const fosterNoteCreatedSchema = fosterNoteSchema.meta({ id: "FosterNote", description: "A note about an animal, kept for staff." });

/** What staff see of a foster's page: the link's state, "ready for another", the notes (newest first). */
export const fosterPageSchema = z
  .object({
    link: z
      .object({ sentAt: z.string().meta({ format: "date-time" }), expiresAt: z.string().meta({ format: "date-time" }), expired: z.boolean() })
      .nullable()
      .meta({ description: "The last link sent (each replaces the one before); null: none sent." }),
    readyAt: z.string().nullable().meta({ format: "date-time", description: 'When the foster last said "ready for another"; null: not said.' }),
    notes: z.array(fosterNoteSchema),
  })
  .meta({ id: "FosterPage", description: "What a foster said on their private page, for the organisation's staff (scope people:read)." });
export type FosterPage = z.infer<typeof fosterPageSchema>;

export const fosterLinkSentSchema = z
  .object({
    sent: z.boolean().meta({ description: "Whether an email was queued (false: no mail server is configured, or the person has no email)." }),
    expiresAt: z.string().meta({ format: "date-time", description: "When the new link stops working." }),
  })
  .meta({ id: "FosterLinkSent", description: "A new private link: the one sent before stops working." });

export const personIdParamsSchema = z.object({
  organizationId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the organisation.", example: 1 }),
  personId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the person (a foster).", example: 7 }),
});
