import { z } from "zod";
import { applicationInputSchema, DECISION_MESSAGE_MAX, honeypotSchema, MESSAGE_MAX } from "@/lib/applications/schemas";
import { idSchema, LIMIT_DEFAULT, LIMIT_MAX, queryInteger } from "@/lib/core/schemas";
import { STORABLE_ISSUE, storable } from "@/lib/core/text";
import { localeSchema } from "@/lib/i18n/schemas";
import { addressInputSchema } from "@/lib/organizations/schemas";
import { capacitySchema, fosterSpeciesSchema, fosterStatusSchema, speciesListSchema } from "@/lib/people/schemas";

// The public application to foster, on each shelter's page: the person's own
// fields (name, email, phone, home) as an adoption application and an
// organisation's address take them, which species and how many, a message.
// The same schema validates the site's form in the browser and the body here.

const { name, email, phone } = applicationInputSchema.shape;

export const newFosterApplicationSchema = z
  .strictObject({
    name,
    email,
    phone,
    address: addressInputSchema.meta({
      description: "The foster's home: `city` and `country` are required; a US ZIP code places it at the ZIP code's centre.",
    }),
    species: speciesListSchema.default([]),
    capacity: capacitySchema,
    message: z
      .string({ error: () => "must be text" })
      .trim()
      .max(MESSAGE_MAX, `must be at most ${MESSAGE_MAX} characters`)
      .refine(storable, STORABLE_ISSUE)
      .default("")
      .meta({ description: `Anything the shelter should know: home, garden, other animals, experience. Up to ${MESSAGE_MAX} characters.` }),
    consent: z
      .literal(true, { error: () => "must be given: the shelter needs your agreement to store these details" })
      .meta({ description: "The applicant agrees that the shelter stores these details to handle the application. Must be `true`." }),
    locale: localeSchema,
    website: honeypotSchema,
  })
  .meta({
    id: "NewFosterApplication",
    description: "An application to foster animals for an organisation. Personal data: only the organisation's staff (people:read) read it.",
  });
export type NewFosterApplication = z.infer<typeof newFosterApplicationSchema>;
export type NewFosterApplicationInput = z.input<typeof newFosterApplicationSchema>;

export const fosterApplicationReceivedSchema = z
  .object({
    received: z.literal(true),
    message: z.string().meta({ description: "What happens next, in words; the same whatever the organisation already knew of this email address." }),
  })
  .meta({ id: "FosterApplicationReceived", description: "Received: an email to the address says what happens next." });

/** An applicant as staff see them in the inbox. */
export const fosterApplicantSchema = z
  .object({
    id: idSchema.meta({ description: "The person's id (the path's `personId` to approve or decline)." }),
    applicationId: idSchema,
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: z.object({
      street: z.string().nullable(),
      city: z.string().nullable(),
      region: z.string().nullable(),
      postcode: z.string().nullable(),
      country: z.string().nullable(),
    }),
    species: z.array(fosterSpeciesSchema),
    capacity: z.number().int().nullable(),
    message: z.string().nullable(),
    locale: z.string(),
    status: fosterStatusSchema,
    createdAt: z.string().meta({ format: "date-time" }),
    decision: z.enum(["approved", "declined"]).nullable(),
    decisionMessage: z.string().nullable(),
    decidedAt: z.string().nullable().meta({ format: "date-time", description: "When staff decided; null while undecided." }),
  })
  .meta({ id: "FosterApplicant", description: "An application to foster and its person (personal data: scope people:read)." });
export type FosterApplicant = z.infer<typeof fosterApplicantSchema>;

export const fosterApplicantsSchema = z.array(fosterApplicantSchema).meta({ id: "FosterApplicants" });

export const listFosterApplicantsQuerySchema = z.object({
  limit: queryInteger(1, LIMIT_MAX, "int32")
    .default(LIMIT_DEFAULT)
    .meta({ description: `Maximum number of applicants returned (1 to ${LIMIT_MAX}).`, example: 20, default: LIMIT_DEFAULT }),
  cursor: z.string().min(1, "must not be empty").optional().meta({ description: "Opaque paging cursor, taken from a `Link` header; never built by hand." }),
});
export type ListFosterApplicantsQuery = z.infer<typeof listFosterApplicantsQuerySchema>;

export const fosterDeclineSchema = z
  .strictObject({
    message: z
      .string({ error: () => "must be text" })
      .trim()
      .max(DECISION_MESSAGE_MAX, `must be at most ${DECISION_MESSAGE_MAX} characters`)
      .refine(storable, STORABLE_ISSUE)
      .optional()
      .transform((s) => s || null)
      .meta({ description: "Said to the applicant in the email." }),
  })
  .meta({ id: "FosterDecline", description: "Decline an application to foster: the person becomes inactive; what they sent stays for staff." });
export type FosterDecline = z.infer<typeof fosterDeclineSchema>;
