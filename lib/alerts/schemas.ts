import { z } from "zod";
import { localeSchema } from "@/lib/i18n/schemas";
import { EMAIL_MAX, honeypotSchema } from "@/lib/applications/schemas";
import { nearSchema, withinSchema } from "@/lib/organizations/geo";
import { ianaTimeZoneSchema } from "@/lib/organizations/schemas";
import { GOOD_WITH } from "@/lib/pets/profile";
import { ageGroupSchema, petSexSchema, petSizeSchema } from "@/lib/pets/schemas/fields";
import { idSchema, searchSchema } from "@/lib/core/schemas";

// "Email me new matches" (issue 27): what the browse page's form sends, and
// what the alert's private page (/alerts/<token>) reads. The filters are the
// pet list's own pieces (lib/pets/schemas.ts, lib/organizations/geo.ts), so
// what the browse page has in its URL maps 1:1; status is never one of them
// (an alert always means `available`). The contract shared with the site is
// docs/api.md "Alerts".

export const ALERT_FREQUENCIES = ["hourly", "daily"] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
export const ALERT_STATUSES = ["unconfirmed", "active", "paused"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** At most this many alerts per email address (409 too_many_alerts beyond). */
export const ALERTS_PER_EMAIL = 10;

/** The adopter's time zone: an IANA name (lib/organizations/schemas.ts says which), for the daily digest. */
export const timeZoneSchema = ianaTimeZoneSchema.meta({
  description:
    "The adopter's time zone: a name the IANA time zone database knows (aliases included), for the daily digest at 08:00 local time: the browser's `Intl.DateTimeFormat().resolvedOptions().timeZone`.",
  example: "America/Chicago",
});

/** A string the list's own schema accepts, kept as given (the alert's page shows it back as it was typed). */
function asListGives(schema: z.ZodType, what: string) {
  return z
    .string({ error: () => `must be a string (${what})` })
    .trim()
    .superRefine((value, ctx) => {
      const result = schema.safeParse(value);
      if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
    });
}

/** Each filter's schema, for the schemas that show some of them (the dashboard's). */
export const alertFilterFields = {
  categoryId: idSchema.optional().meta({ description: "Only animals of this category (GET /categories)." }),
  sex: petSexSchema.exclude(["unknown"]).optional().meta({ description: "Only animals of this sex." }),
  size: petSizeSchema.optional().meta({ description: "Only animals of this size." }),
  ageGroup: ageGroupSchema.optional().meta({ description: "Only animals in this age group on the day they arrive." }),
  goodWith: z
    .array(z.enum(GOOD_WITH), { error: () => `must be an array of ${GOOD_WITH.join(", ")}` })
    .max(GOOD_WITH.length)
    // One order, so that the same filters are the same alert filters (the dashboard groups by them).
    .transform((kinds) => GOOD_WITH.filter((k) => kinds.includes(k)))
    .optional()
    .meta({ description: "Only animals known to get on with all of these.", example: ["children"] }),
  q: searchSchema.optional().meta({ description: "Only animals whose name contains this text (as the list's `q`).", example: "bis" }),
  near: asListGives(nearSchema, "a US ZIP code or latitude,longitude")
    .optional()
    .meta({
      pattern: nearSchema.meta()?.pattern as string,
      description: "Only animals at shelters near this place: as the list's `near` (a US ZIP code or `latitude,longitude`).",
      example: "60601",
    }),
  within: asListGives(withinSchema, "a distance such as 25mi")
    .optional()
    .meta({
      pattern: withinSchema.meta()?.pattern as string,
      maxLength: withinSchema.meta()?.maxLength as number,
      description: "How far from `near`, as the list's `within` (default 100km).",
      example: "25mi",
    }),
};

export const alertFiltersSchema = z
  .strictObject(alertFilterFields, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? "is not an alert filter (categoryId, sex, size, ageGroup, goodWith, q, near, within)" : "must be an object",
  })
  .superRefine((f, ctx) => {
    if (f.within !== undefined && f.near === undefined)
      ctx.addIssue({ code: "custom", path: ["within"], message: "needs `near`: say where to measure from (a US ZIP code or latitude,longitude)" });
  })
  .meta({
    id: "AlertFilters",
    description: "The browse page's filters an alert watches (status aside: an alert always means available animals). None: every new animal.",
  });
export type AlertFilters = z.infer<typeof alertFiltersSchema>;

export const newAlertSchema = z
  .strictObject({
    email: z
      .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") })
      .trim()
      .max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`)
      .pipe(z.email("must be an email address, like name@example.org"))
      .transform((s) => s.toLowerCase())
      .meta({
        format: "email",
        maxLength: EMAIL_MAX,
        description: "Where the matches go (and first the confirmation); compared without regard to case.",
        example: "sam@example.org",
      }),
    frequency: z
      .enum(ALERT_FREQUENCIES, { error: () => "must be hourly or daily" })
      .meta({ description: "`hourly`: as they arrive, at most one email an hour; `daily`: one digest at 08:00 in `timeZone`." }),
    timeZone: timeZoneSchema.default("UTC"),
    filters: alertFiltersSchema.default({}),
    consent: z
      .literal(true, { error: () => "must be given: we need your agreement to store your email address to send you these emails" })
      .meta({ description: "The adopter agrees to receive these emails. Must be `true`." }),
    locale: localeSchema,
    // A field people never see: bots fill every field they find.
    website: honeypotSchema,
  })
  .meta({
    id: "NewAlert",
    description: "An alert for new animals matching the browse page's filters. Personal data: the email address is used for these emails only.",
  });
export type NewAlert = z.infer<typeof newAlertSchema>;
export type NewAlertInput = z.input<typeof newAlertSchema>;

export const alertCreatedSchema = z
  .object({
    status: z.literal("confirmation_sent"),
    message: z.string().meta({ example: "Check your email: we sent a link to confirm the alert. Nothing is sent until it is confirmed." }),
  })
  .meta({ id: "AlertCreated", description: "The same answer whether or not the address already had alerts." });

export const alertViewSchema = z
  .object({
    status: z.enum(ALERT_STATUSES).meta({ description: "`unconfirmed` until its link is opened; `paused` sends nothing." }),
    frequency: z.enum(ALERT_FREQUENCIES),
    timeZone: z.string().meta({ example: "America/Chicago" }),
    filters: alertFiltersSchema,
    description: z.string().meta({ description: "The filters in words.", example: "Dogs · small · good with children · within 25 mi of 60601" }),
    emailHint: z.string().meta({ description: "The address, mostly hidden.", example: "s…@example.org" }),
    createdAt: z.string().meta({ format: "date-time" }),
    confirmedAt: z.string().nullable().meta({ format: "date-time" }),
  })
  .meta({ id: "Alert", description: "An alert as its private link shows it." });
export type AlertView = z.infer<typeof alertViewSchema>;

export const alertPatchSchema = z
  .strictObject(
    { paused: z.boolean({ error: () => "must be true or false" }) },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "is not a field that can be changed (paused)" : "must be an object") },
  )
  .meta({ id: "AlertPatch", description: "Pause (true) or resume (false) a confirmed alert." });
export type AlertPatch = z.infer<typeof alertPatchSchema>;

export const alertUnsubscribedSchema = z.object({ status: z.literal("unsubscribed") }).meta({ id: "AlertUnsubscribed" });

export const alertTokenParamsSchema = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "is not an alert link")
    .meta({ description: "The alert's private token, from its link." }),
});
