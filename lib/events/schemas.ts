import { z } from "zod";
import { staySchema } from "@/lib/stays/schemas";
import { idListSchema, idSchema, IDS_MAX, LIMIT_DEFAULT, LIMIT_MAX, queryInteger } from "@/lib/core/schemas";
import { petFieldsSchema, petSchema } from "@/lib/pets/schemas/pet";

// The change feed's shapes: what GET /v1/events returns and what a webhook
// delivery carries (the very same JSON), in one place for the handlers, the
// OpenAPI document and the site's generated types.

// pet.stay.*: the organisation's records, read by its staff and its keys with
// records:read. pet.listed / pet.unlisted: what every other reader is told
// when an animal comes into care or leaves it (lib/visibility/policy.ts).
export const PET_EVENT_TYPES = ["pet.created", "pet.updated", "pet.stay.started", "pet.stay.ended", "pet.listed", "pet.unlisted"] as const;
export type PetEventType = (typeof PET_EVENT_TYPES)[number];
export const petEventTypeSchema = z.enum(PET_EVENT_TYPES).meta({
  id: "EventType",
  description:
    "What happened: an animal was added, or changed; a stay of an animal started (an intake) or ended (an outcome), for readers of the organisation's records; an animal is listed again, or no longer listed, for every other reader.",
});

/** `evt_` and the event's position in the feed. Events are numbered in commit order (docs/decisions/005). */
export const EVENT_ID_PATTERN = /^evt_([1-9][0-9]{0,15})$/;
export const eventIdOf = (position: bigint | number) => `evt_${position}`;

const eventIdSchema = z.string().regex(EVENT_ID_PATTERN).meta({
  description:
    "The event's id: unique, and increasing in the order events committed. Also the `webhook-id` of its deliveries, and the feed's cursor (`after`).",
  example: "evt_42",
});

/** The changed fields' values before a change: a component of its own, so that both event types reference it. */
const petPreviousSchema = petFieldsSchema.partial().meta({
  id: "PetPreviousFields",
  description: "The changed fields' values before the change (`pet.updated` and the stays' events); the others are left out.",
});

// `pet` and `previous` carry no .meta() of their own: a description there would make the generator copy
// Pet into every event type instead of referencing it (13 near-duplicate types in a partner's client).
export const petEventDataSchema = z
  .object({
    pet: petSchema,
    previous: petPreviousSchema.optional(),
    stay: staySchema.optional(),
  })
  .meta({
    id: "PetEventData",
    description:
      "`pet`: the animal after the change, with the `version` its ETag carries. `previous` (`pet.updated` and the stays' events): the changed fields' values before it. `stay`: the stay after the change, in `pet.stay.started` and `pet.stay.ended`, and in a `pet.updated` that corrected a stay or whose change of status ended or reopened one.",
  });
export type PetEventData = z.infer<typeof petEventDataSchema>;

const eventBase = {
  id: eventIdSchema,
  organizationId: idSchema.meta({
    description: "The organisation of the animal that changed: an organisation's key reads (and its webhooks receive) only its own organisation's events.",
  }),
  createdAt: z.string().meta({ format: "date-time", description: "When the change committed.", example: "2026-11-23T10:15:30.123Z" }),
};

export const petCreatedEventSchema = z
  .object({ ...eventBase, type: z.literal("pet.created"), data: petEventDataSchema.omit({ previous: true }) })
  .meta({ id: "PetCreatedEvent", description: "An animal was added." });

export const petUpdatedEventSchema = z
  .object({ ...eventBase, type: z.literal("pet.updated"), data: petEventDataSchema.required({ previous: true }) })
  .meta({ id: "PetUpdatedEvent", description: "An animal changed: any of its fields, or its photos (added, removed or reordered)." });

export const petStayStartedEventSchema = z
  .object({ ...eventBase, type: z.literal("pet.stay.started"), data: petEventDataSchema.required({ previous: true, stay: true }) })
  .meta({
    id: "PetStayStartedEvent",
    description:
      "An animal came in again (a new intake, POST /v1/pets/{petId}/stays): back in care and `available`. An animal's first stay is announced by its `pet.created`. A record: only the organisation's staff and its keys with records:read are sent it (others get `pet.listed`, or `pet.updated` for an adopted animal that came back).",
  });

export const petStayEndedEventSchema = z
  .object({ ...eventBase, type: z.literal("pet.stay.ended"), data: petEventDataSchema.required({ previous: true, stay: true }) })
  .meta({
    id: "PetStayEndedEvent",
    description:
      "A stay ended with an outcome: `adoption` (the animal is `sold`, whether recorded as an outcome, by the adoption workflow or by a change of status; a status change also sends its `pet.updated`), or another outcome (the animal is out of care: off every public list). A record: only the organisation's staff and its keys with records:read are sent it (others get `pet.updated` for an adoption, `pet.unlisted` for any other outcome).",
  });

export const petListedEventSchema = z.object({ ...eventBase, type: z.literal("pet.listed"), data: petEventDataSchema.pick({ pet: true }) }).meta({
  id: "PetListedEvent",
  description:
    "An animal is listed again: it came back into care. Sent to readers that do not read the organisation's records (who were sent `pet.unlisted` when it left, and nothing while it was away), with the animal as it is now: add it to your copy.",
});

export const petUnlistedEventSchema = z
  .object({
    ...eventBase,
    type: z.literal("pet.unlisted"),
    data: z
      .object({
        pet: z
          .object({ id: idSchema.meta({ description: "The animal that is no longer listed." }), organizationId: idSchema })
          .meta({ id: "UnlistedPet", description: "Only who the animal is: why it left is the organisation's record." }),
      })
      .meta({ id: "PetUnlistedEventData" }),
  })
  .meta({
    id: "PetUnlistedEvent",
    description:
      "An animal is no longer listed: it left the organisation's care (any way but adoption, which is a `pet.updated` to `sold`). Sent to readers that do not read the organisation's records, in place of the outcome: remove it from your copy. Nothing more is sent about it until a `pet.listed`.",
  });

export const eventSchema = z
  .discriminatedUnion("type", [
    petCreatedEventSchema,
    petUpdatedEventSchema,
    petStayStartedEventSchema,
    petStayEndedEventSchema,
    petListedEventSchema,
    petUnlistedEventSchema,
  ])
  .meta({ id: "Event", description: "One change to an animal. Never names who made it." });
export type PetEvent = z.infer<typeof eventSchema>;
/** An event that carries the whole animal: every type but `pet.unlisted`. */
export type PetChangeEvent = Exclude<PetEvent, { type: "pet.unlisted" }>;

export const eventsSchema = z.array(eventSchema).meta({ id: "Events", description: "Events, oldest first." });

/** The ping `POST /v1/webhooks/{id}/test` sends; never in the feed. */
export const testEventSchema = z
  .object({
    id: z.string().meta({ example: "evt_test_6d1f0c2a9b8e4f3a" }),
    type: z.literal("webhook.test"),
    createdAt: eventBase.createdAt,
    data: z.object({
      endpointId: z.number().int().meta({ description: "The endpoint this test was sent to." }),
      message: z.string(),
    }),
  })
  .meta({ id: "WebhookTestEvent", description: "A test delivery, sent on request. Its id is never reused, and it is not in the feed." });
export type TestEvent = z.infer<typeof testEventSchema>;

/** How long events (and their deliveries) are kept. */
export const EVENT_RETENTION_DAYS = 30;

export const listEventsQuerySchema = z.object({
  after: z
    .string()
    .regex(EVENT_ID_PATTERN, "must be an event id such as evt_42")
    .transform((id) => BigInt(EVENT_ID_PATTERN.exec(id)![1]!))
    .optional()
    .meta({
      type: "string",
      pattern: EVENT_ID_PATTERN.source,
      description: `Return the events after this one: the \`id\` of the last event you processed. Without it, the feed starts at the oldest event kept (${EVENT_RETENTION_DAYS} days).`,
      example: "evt_42",
    }),
  limit: queryInteger(1, LIMIT_MAX, "int32")
    .default(LIMIT_DEFAULT)
    .meta({ default: LIMIT_DEFAULT, description: "Maximum number of events returned (1 to 100).", example: 20 }),
  type: petEventTypeSchema.optional().meta({ description: "Only events of this type." }),
  organizationId: idListSchema.optional().meta({
    description: `Only events of these organisations (comma-separated ids, at most ${IDS_MAX}). An organisation's key reads its own organisation's events whether or not it says so, and may not name another.`,
    example: [1, 2],
  }),
});
export type ListEventsQuery = z.infer<typeof listEventsQuerySchema>;
