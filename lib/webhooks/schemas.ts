import { z } from "zod";
import { integerId } from "@/lib/core/path-id";
import { PET_EVENT_TYPES, petEventTypeSchema } from "@/lib/events/schemas";
import { LIMIT_MAX, queryInteger } from "@/lib/core/schemas";

// The shapes of webhook endpoints, their deliveries and attempts: request
// parsing, responses, the OpenAPI document and the site's types.

/** At most this many endpoints per API key (disabled ones included). */
export const WEBHOOKS_PER_KEY = 10;
export const WEBHOOK_URL_MAX = 2048;
export const DESCRIPTION_MAX = 500;

export const webhookIdParamsSchema = z.object({ webhookId: integerId("webhook endpoint") });
export const deliveryIdParamsSchema = z.object({ webhookId: integerId("webhook endpoint"), deliveryId: integerId("delivery") });

/** An http(s) URL; whether its host may be reached is decided by lib/outbound/address-guard.ts (it needs DNS). */
const urlSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an absolute https:// URL")
  .refine((value) => !URL.canParse(value) || (new URL(value).username === "" && new URL(value).password === ""), "must not contain a user name or password")
  .meta({
    format: "uri",
    maxLength: WEBHOOK_URL_MAX,
    description: "Where deliveries are POSTed. `https` with a publicly reachable host.",
    example: "https://partner.example/petstore/webhooks",
  });

const eventsSchema = z
  .array(petEventTypeSchema, { error: (issue) => (issue.input === undefined ? "is required" : "must be an array of event types") })
  .min(1, `must name at least one of ${PET_EVENT_TYPES.join(", ")}`)
  .transform((types) => PET_EVENT_TYPES.filter((t) => types.includes(t)))
  .meta({
    description:
      "The event types to deliver: one or more. A copy of what is listed needs `pet.created`, `pet.updated`, `pet.listed` and `pet.unlisted`; the stays' events need `records:read`.",
    example: ["pet.created", "pet.updated", "pet.listed", "pet.unlisted"],
    uniqueItems: true,
  });

const descriptionSchema = z
  .string()
  .trim()
  .max(DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters`)
  .meta({ description: "A note for people (what the endpoint is for).", example: "Mirror for the adoption page" });

export const newWebhookSchema = z
  .strictObject({ url: urlSchema, events: eventsSchema, description: descriptionSchema.optional() })
  .meta({ id: "NewWebhookEndpoint", description: "Registers an endpoint. Unknown fields are refused." });
export type NewWebhook = z.infer<typeof newWebhookSchema>;

export const webhookPatchSchema = z
  .strictObject({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    description: descriptionSchema.nullable().optional().meta({ description: "A note for people; `null` removes it." }),
    enabled: z
      .boolean({ error: "must be true or false" })
      .optional()
      .meta({ description: "`false` pauses deliveries; `true` resumes them (for events from then on) and clears the failure record." }),
  })
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), "must change at least one of url, events, description, enabled")
  .meta({ id: "WebhookEndpointPatch", description: "The fields to change; the others keep their values.", minProperties: 1 });
export type WebhookPatch = z.infer<typeof webhookPatchSchema>;

const timestamp = (description: string) => z.string().meta({ format: "date-time", description });

export const webhookEndpointSchema = z
  .object({
    id: z.number().int().meta({ example: 1 }),
    url: z.string().meta({ example: "https://partner.example/petstore/webhooks" }),
    events: z.array(petEventTypeSchema),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .meta({ description: "Why deliveries stopped: disabled by you or by staff, the receiver answered 410, or three days of failures." }),
    failingSince: timestamp("Since when every attempt has failed; null while deliveries succeed.").nullable(),
    lastAttempt: z
      .object({ at: timestamp("When."), ok: z.boolean(), statusCode: z.number().int().nullable() })
      .nullable()
      .meta({ description: "The most recent delivery attempt." }),
    createdAt: timestamp("When it was registered; events committed after this are delivered."),
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

const secretSchema = z.string().meta({
  description: "The signing secret (`whsec_` + base64 of 32 bytes). Shown only in this answer: store it now.",
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
});

export const createdWebhookSchema = webhookEndpointSchema
  .extend({ secret: secretSchema })
  .meta({ id: "WebhookEndpointWithSecret", description: "A new endpoint, with its signing secret (shown once)." });

export const rotatedSecretSchema = webhookEndpointSchema
  .extend({
    secret: secretSchema,
    previousSecretExpiresAt: timestamp("Until then deliveries carry a signature with the old secret as well (24 hours)."),
  })
  .meta({ id: "WebhookEndpointRotated", description: "The endpoint with its new signing secret (shown once)." });

export const webhookEndpointsSchema = z.array(webhookEndpointSchema).meta({ id: "WebhookEndpoints" });

/** Why an attempt failed without an answer from the receiver. */
export const ATTEMPT_ERRORS = [
  "timeout",
  "connection_refused",
  "connection_reset",
  "tls_error",
  "dns_error",
  "unreachable",
  "address_not_allowed",
  "connection_error",
  "shutdown",
  // Ours, not the receiver's: the endpoint's secret could not be read (the app secret was replaced); rotating it fixes this.
  "signing_error",
] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];

export const attemptSchema = z
  .object({
    at: timestamp("When the attempt started."),
    durationMs: z.number().int().meta({ description: "How long until the answer (or the failure)." }),
    statusCode: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when it did not answer." }),
    error: z.enum(ATTEMPT_ERRORS).nullable().meta({
      description:
        "Why there was no answer: timeout (10 s), connection_refused, tls_error, address_not_allowed (the host does not resolve to a public address: whether it does not resolve at all or resolves to an address we never call is not said)...",
    }),
    errorDetail: z.string().nullable(),
    responseBody: z.string().nullable().meta({ description: "The start of the receiver's answer (at most 4 kB)." }),
  })
  .meta({ id: "WebhookAttempt" });
export type Attempt = z.infer<typeof attemptSchema>;

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "cancelled"] as const;

export const deliverySchema = z
  .object({
    id: z.number().int(),
    eventId: z.string().meta({ description: "The event delivered; also the `webhook-id` header of every attempt.", example: "evt_42" }),
    eventType: petEventTypeSchema,
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        "pending (an attempt is due at `nextAttemptAt`), succeeded, failed (retries exhausted, or the endpoint answered 410), cancelled (the endpoint was disabled).",
    }),
    createdAt: timestamp("When the event was queued for this endpoint."),
    nextAttemptAt: timestamp("When the next attempt is due (pending deliveries).").nullable(),
    attempts: z.array(attemptSchema).meta({ description: "Every attempt, oldest first." }),
  })
  .meta({ id: "WebhookDelivery" });
export type Delivery = z.infer<typeof deliverySchema>;
export const deliveriesSchema = z.array(deliverySchema).meta({ id: "WebhookDeliveries" });

export const testResultSchema = z
  .object({
    eventId: z.string().meta({ example: "evt_test_6d1f0c2a9b8e4f3a" }),
    succeeded: z.boolean().meta({ description: "The receiver answered 2xx within 10 seconds." }),
    attempt: attemptSchema,
  })
  .meta({ id: "WebhookTestResult" });
export type TestResult = z.infer<typeof testResultSchema>;

export const listDeliveriesQuerySchema = z.object({
  limit: queryInteger(1, LIMIT_MAX, "int32").default(20).meta({ default: 20, description: "Maximum number of deliveries returned (1 to 100).", example: 20 }),
  cursor: z.string().min(1, "must not be empty").optional().meta({ description: "Opaque paging cursor, taken from a `Link` header." }),
});
export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuerySchema>;

/** What staff see of an endpoint: the partner's view plus its key. */
export const staffWebhookSchema = webhookEndpointSchema.extend({ keyId: z.number().int(), keyName: z.string() }).meta({ id: "StaffWebhookEndpoint" });
export type StaffWebhook = z.infer<typeof staffWebhookSchema>;
export const staffWebhooksSchema = z.array(staffWebhookSchema).meta({ id: "StaffWebhookEndpoints" });

export const keyWebhookParamsSchema = z.object({
  keyId: integerId("API key"),
  webhookId: integerId("webhook endpoint"),
});
