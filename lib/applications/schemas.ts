import { z } from "zod";
import { localeSchema } from "@/lib/i18n/schemas";
import { idSchema } from "@/lib/core/schemas";
import { petStatusSchema } from "@/lib/pets/schemas/fields";
import { STORABLE_ISSUE, storable } from "@/lib/core/text";

// Adoption applications: what an adopter (or a listing site forwarding one)
// sends, what the applicant's private page and staff read, and the steps
// staff take. The one schema validates the site's form in the browser and
// the API's body on the server.

export const APPLICATION_STATES = ["received", "in_review", "approved", "declined", "withdrawn", "completed", "cancelled"] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];
/** States in which an application is still being handled (one per person and animal). */
export const OPEN_STATES = ["received", "in_review", "approved"] as const satisfies readonly ApplicationState[];

export const HOMES = ["house", "flat", "other"] as const;
export type Home = (typeof HOMES)[number];

export const APPLICANT_NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const PHONE_MAX = 40;
export const OTHER_ANIMALS_MAX = 500;
export const MESSAGE_MAX = 2000;
export const DECISION_MESSAGE_MAX = 1000;

// Lengths as zod constraints (checked after trimming), not refinements: the generator states them as
// minLength/maxLength, which a refinement never reaches. zod 4 counts characters (code points), as
// JSON Schema and the database's varchar do (tests/api/document-boundaries.test.ts probes with one).
const text = (max: number, required: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? required : "must be text") })
    .trim()
    .min(1, required)
    .max(max, `must be at most ${max} characters`)
    .refine(storable, STORABLE_ISSUE);

/** What the phone fields accept (after trimming), stated to the document as it is checked. */
export const PHONE_PATTERN = /^[0-9+()\-. /]{5,}$/;

/** A field people never see (the forms that mail a typed address): bots fill every field they find. */
export const honeypotSchema = z.string().max(0, "must be left empty").optional().meta({ description: "Leave out (a honeypot: any value is refused)." });

export const applicationInputSchema = z
  .strictObject({
    name: text(APPLICANT_NAME_MAX, "is required").meta({ description: "The applicant's name.", example: "Sam Rivera" }),
    email: z
      .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") })
      .trim()
      .max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`)
      .pipe(z.email("must be an email address, like name@example.org"))
      .transform((s) => s.toLowerCase())
      .meta({ format: "email", maxLength: EMAIL_MAX, description: "Where the shelter answers; compared without regard to case.", example: "sam@example.org" }),
    phone: z
      .string({ error: () => "must be text" })
      .trim()
      .max(PHONE_MAX, `must be at most ${PHONE_MAX} characters`)
      .refine((s) => s === "" || PHONE_PATTERN.test(s), "must be a phone number (digits, spaces, + ( ) - .)")
      .transform((s) => s || null)
      .nullable()
      .optional()
      .transform((s) => s ?? null)
      .meta({
        pattern: `^$|${PHONE_PATTERN.source}`,
        maxLength: PHONE_MAX,
        description: "Optional: digits, spaces and + ( ) - . (at least 5).",
        example: "+44 20 7946 0000",
      }),
    home: z.enum(HOMES, { error: () => `must be one of ${HOMES.join(", ")}` }).meta({ description: "The applicant's home.", example: "house" }),
    otherAnimals: z
      .string({ error: () => "must be text" })
      .trim()
      .max(OTHER_ANIMALS_MAX, `must be at most ${OTHER_ANIMALS_MAX} characters`)
      .refine(storable, STORABLE_ISSUE)
      .default("")
      .meta({ description: 'Other animals at home ("none" or empty when there are none).', example: "One elderly cat" }),
    message: text(MESSAGE_MAX, "is required").meta({
      description: `Why this animal? Up to ${MESSAGE_MAX} characters of plain text.`,
      example: "We have a garden and work from home.",
    }),
    consent: z
      .literal(true, { error: () => "must be given: the shelter needs your agreement to store these details" })
      .meta({ description: "The applicant agrees that the shelter stores these details to handle the application. Must be `true`." }),
    locale: localeSchema,
    // A field people never see: bots fill every field they find.
    website: honeypotSchema,
  })
  .meta({
    id: "NewApplication",
    description: "An application to adopt an animal. Personal data: stored only to handle it, and anonymised after the retention period.",
  });
export type NewApplication = z.infer<typeof applicationInputSchema>;
export type NewApplicationInput = z.input<typeof applicationInputSchema>;

export const applicationCreatedSchema = z
  .object({
    id: idSchema,
    state: z.enum(APPLICATION_STATES),
    statusUrl: z.string().meta({
      format: "uri",
      description: "The applicant's private page: its status, and a way to withdraw. Give it only to the applicant.",
      example: "https://petstore.example/applications/3q2-7w8Xx0y5K8mH0K7m9v",
    }),
  })
  .meta({ id: "ApplicationCreated", description: "The application was received." });

/** What the applicant's private link shows: their own application, and the animal. */
export const applicationStatusSchema = z.object({
  id: idSchema,
  state: z.enum(APPLICATION_STATES),
  petId: idSchema,
  petName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  name: z.string().nullable(),
  decisionMessage: z.string().nullable(),
});
export type ApplicationStatus = z.infer<typeof applicationStatusSchema>;

/** An application as staff see it. */
export const applicationSchema = applicationStatusSchema.extend({
  petStatus: petStatusSchema,
  petVersion: z.number().int().min(1).meta({
    description:
      'The animal\'s version now: send it as `If-Match` (`"3"`) with a step that changes the animal, so that it is taken only if nobody changed the animal since.',
  }),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  home: z.enum(HOMES).nullable(),
  otherAnimals: z.string().nullable(),
  message: z.string().nullable(),
  source: z.enum(["site", "partner"]),
  anonymised: z.boolean(),
  steps: z.array(
    z.object({
      from: z.enum(APPLICATION_STATES).nullable(),
      to: z.enum(APPLICATION_STATES),
      at: z.string(),
      actor: z.string().meta({ description: '"the applicant", "staff <email>", "API key #<id>" or "the system".' }),
    }),
  ),
});
export type Application = z.infer<typeof applicationSchema>;

/** Staff steps: the state to move to, and for a decline or a completion, what to tell the others. */
export const STAFF_TARGETS = ["in_review", "approved", "declined", "completed", "cancelled"] as const;
export type StaffTarget = (typeof STAFF_TARGETS)[number];

/** Every step an application can take: staff's, and the applicant's withdrawal (through the private link). */
export type ApplicationStep = StaffTarget | "withdrawn";

/**
 * The state machine, the one table the service enforces: from each state,
 * the steps it allows; anything else is 409 invalid_transition and changes
 * nothing. docs/api.md ("Applications to adopt") prints the same table and
 * tests/api/applications-states.test.ts holds the two together. An
 * undecided application may be approved or declined without a review first
 * (a clear case needs none); once approved, only the shelter ends it.
 */
export const APPLICATION_MOVES: Record<ApplicationState, readonly ApplicationStep[]> = {
  received: ["in_review", "approved", "declined", "withdrawn"],
  in_review: ["approved", "declined", "withdrawn"],
  approved: ["completed", "cancelled"],
  declined: [],
  withdrawn: [],
  completed: [],
  cancelled: [],
};
/**
 * The one move no one asks for: when the animal leaves the shelter other than
 * by adoption (an outcome of its stay), its applications in these states are
 * cancelled, as they can never be completed (closeApplicationsOfAnimalLeavingCare).
 */
export const CLOSED_WHEN_ANIMAL_LEAVES: readonly ApplicationState[] = [...OPEN_STATES];

export const transitionSchema = z.strictObject({
  to: z.enum(STAFF_TARGETS, { error: () => `must be one of ${STAFF_TARGETS.join(", ")}` }),
  /** On completed: decline the animal's other open applications with this message. */
  declineOthers: z.boolean().optional().default(false),
  message: z
    .string()
    .trim()
    .max(DECISION_MESSAGE_MAX, `must be at most ${DECISION_MESSAGE_MAX} characters`)
    .refine(storable, STORABLE_ISSUE)
    .optional()
    .transform((s) => s || null),
  /**
   * The animal's version the staff member saw (approve, complete and cancel
   * change the animal). Kept for the clients that send it; the `If-Match`
   * header (the animal's ETag) says the same, as for any change of an animal.
   */
  petVersion: z.number().int().min(1).optional().meta({
    description:
      "Deprecated: send the animal's ETag in `If-Match` instead. The animal's version the step assumes (approve, complete and cancel change the animal); otherwise 412.",
    deprecated: true,
  }),
});
export type Transition = z.infer<typeof transitionSchema>;

export const applicationListQuerySchema = z.object({
  state: z.enum(APPLICATION_STATES).optional(),
  petId: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type ApplicationListQuery = z.infer<typeof applicationListQuerySchema>;

/** The private link's token: 32 random bytes in base64url (256 bits). */
export const tokenParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "is not an application link") });
export const applicationIdParamsSchema = z.object({ applicationId: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
