import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  EVENT_RETENTION_DAYS,
  eventsSchema,
  listEventsQuerySchema,
  petCreatedEventSchema,
  petStayEndedEventSchema,
  petStayStartedEventSchema,
  petUpdatedEventSchema,
  testEventSchema,
} from "@/lib/events/schemas";
import { COMMON_HEADERS, commonErrors, errorResponse, header } from "@/lib/openapi/builders";
import {
  WEBHOOKS_PER_KEY,
  createdWebhookSchema,
  deliveriesSchema,
  deliveryIdParamsSchema,
  deliverySchema,
  listDeliveriesQuerySchema,
  newWebhookSchema,
  rotatedSecretSchema,
  testResultSchema,
  webhookEndpointSchema,
  webhookEndpointsSchema,
  webhookIdParamsSchema,
  webhookPatchSchema,
} from "@/lib/webhooks/schemas";

// The change feed, the webhook endpoints and the events we POST to them
// (OpenAPI 3.1 `webhooks`), registered into the partner document. Only
// called from buildOpenApiDocument (module cycle: nothing runs at import).

type Security = { [name: string]: string[] }[];

const LINK_NEXT = (what: string) => header(`RFC 8288: \`<…>; rel="next"\` while more ${what} are waiting.`);

export function registerFeedAndWebhooks(registry: OpenAPIRegistry, security: Security): void {
  const json = <S extends z.ZodType>(schema: S) => ({ "application/json": { schema } });
  const ok = <S extends z.ZodType>(description: string, schema: S, headers: Record<string, ReturnType<typeof header>> = {}) => ({
    description,
    headers: { ...COMMON_HEADERS, ...headers },
    content: json(schema),
  });
  const notFound = errorResponse(404, ["not_found"], {}, "No such webhook endpoint among this key's (another key's endpoints are not found either).");
  const invalidPath = errorResponse(400, ["invalid_path"]);
  const manage = { tags: ["webhooks"], security };

  registry.registerPath({
    method: "get",
    path: "/events",
    operationId: "listEvents",
    summary: "Read the change feed",
    description: `Every create and update of an animal, oldest first, each once, as your key may see it. The stays' events (\`pet.stay.started\`, \`pet.stay.ended\`) are the organisation's records: its staff and its keys with \`records:read\` get them (and every change of an animal out of care); every other key gets, in their place, one \`pet.unlisted\` when an animal leaves care (no reason), nothing while it is out of care, and a \`pet.listed\` when it is back, so a copy kept from the feed holds exactly the animals listed. For API keys (and signed-in staff): an adopter's browser session gets 403. Keep the \`id\` of the last event you processed and pass it as \`after\` next time: you get every later event exactly once and in order, even while many changes commit at once. Events are kept ${EVENT_RETENTION_DAYS} days; an \`after\` older than that answers 410 \`cursor_expired\` (start again without it, and reconcile with \`GET /pets\`).`,
    tags: ["events"],
    security,
    request: { query: listEventsQuerySchema },
    responses: {
      200: ok("Events after `after`, oldest first (an empty array when you are up to date).", eventsSchema, { Link: LINK_NEXT("events") }),
      400: errorResponse(400, ["invalid_query", "invalid_cursor"]),
      410: errorResponse(410, ["cursor_expired"], {}, `The events after \`after\` are no longer kept (${EVENT_RETENTION_DAYS} days).`),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/webhooks",
    operationId: "listWebhooks",
    summary: "List your webhook endpoints",
    description: "The endpoints registered with this API key (scope `webhooks:manage`).",
    ...manage,
    responses: { 200: ok("This key's endpoints.", webhookEndpointsSchema), ...commonErrors() },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks",
    operationId: "createWebhook",
    summary: "Register a webhook endpoint",
    description: `We POST each event of the chosen types, committed from now on, to \`url\`, signed per Standard Webhooks with the \`secret\` in this answer (shown only here). Subscribing to \`pet.stay.started\` or \`pet.stay.ended\` needs \`records:read\` (403 otherwise); what each delivery carries is decided when it is sent, by the key's scopes then (a key that lost \`records:read\` is sent what any other key is, or nothing). A 2xx within 10 seconds acknowledges; anything else is retried with backoff for about three days. A 410 answer, or three days of failures, disables the endpoint. The URL must be \`https\` and its host public. At most ${WEBHOOKS_PER_KEY} endpoints per key.`,
    ...manage,
    request: { body: { required: true, content: json(newWebhookSchema) } },
    responses: {
      201: ok("Registered. Store `secret` now.", createdWebhookSchema, { Location: header("URL of the new endpoint.") }),
      400: errorResponse(
        400,
        ["invalid_json", "invalid_body", "invalid_webhook_url"],
        {},
        "The body is invalid, or the URL cannot be used (not https, or its host is not a public address).",
      ),
      409: errorResponse(409, ["webhook_limit_reached"], {}, `This key already has ${WEBHOOKS_PER_KEY} endpoints.`),
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "get",
    path: "/webhooks/{webhookId}",
    operationId: "getWebhook",
    summary: "Get a webhook endpoint",
    ...manage,
    request: { params: webhookIdParamsSchema },
    responses: { 200: ok("The endpoint, with its state.", webhookEndpointSchema), 400: invalidPath, 404: notFound, ...commonErrors() },
  });

  registry.registerPath({
    method: "patch",
    path: "/webhooks/{webhookId}",
    operationId: "updateWebhook",
    summary: "Change a webhook endpoint",
    description:
      "Change its URL, event types or description; `enabled: false` pauses deliveries, `enabled: true` resumes them for events from then on (and clears its failure record).",
    ...manage,
    request: { params: webhookIdParamsSchema, body: { required: true, content: json(webhookPatchSchema) } },
    responses: {
      200: ok("The endpoint as changed.", webhookEndpointSchema),
      400: errorResponse(400, ["invalid_path", "invalid_json", "invalid_body", "invalid_webhook_url"]),
      404: notFound,
      413: errorResponse(413, ["payload_too_large"]),
      415: errorResponse(415, ["unsupported_media_type"]),
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "delete",
    path: "/webhooks/{webhookId}",
    operationId: "deleteWebhook",
    summary: "Delete a webhook endpoint",
    description: "Nothing more is delivered to it; its deliveries log goes with it.",
    ...manage,
    request: { params: webhookIdParamsSchema },
    responses: { 204: { description: "Deleted.", headers: COMMON_HEADERS }, 400: invalidPath, 404: notFound, ...commonErrors() },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/{webhookId}/rotate-secret",
    operationId: "rotateWebhookSecret",
    summary: "Rotate the signing secret",
    description:
      "A new secret, shown only in this answer. For 24 hours every delivery carries two signatures (new and old secret), so you can switch your receiver over without missing one.",
    ...manage,
    request: { params: webhookIdParamsSchema },
    responses: {
      200: ok("The new secret; the old one signs too until `previousSecretExpiresAt`.", rotatedSecretSchema),
      400: invalidPath,
      404: notFound,
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/{webhookId}/test",
    operationId: "testWebhook",
    summary: "Send a test event",
    description:
      "Sends a signed `webhook.test` event to the endpoint now and answers what your receiver did. Test events are not in the feed and are not retried.",
    ...manage,
    request: { params: webhookIdParamsSchema },
    responses: { 200: ok("The attempt (whether or not the receiver accepted it).", testResultSchema), 400: invalidPath, 404: notFound, ...commonErrors() },
  });

  registry.registerPath({
    method: "get",
    path: "/webhooks/{webhookId}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "The deliveries log",
    description:
      "This endpoint's deliveries, newest first: the event, every attempt (when, how long, the status code or the error, the start of the answer) and when the next is due.",
    ...manage,
    request: { params: webhookIdParamsSchema, query: listDeliveriesQuerySchema },
    responses: {
      200: ok("A page of deliveries.", deliveriesSchema, { Link: LINK_NEXT("deliveries") }),
      400: errorResponse(400, ["invalid_path", "invalid_query", "invalid_cursor"]),
      404: notFound,
      ...commonErrors(),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/{webhookId}/deliveries/{deliveryId}/retry",
    operationId: "retryWebhookDelivery",
    summary: "Retry a delivery now",
    description: "Attempts the delivery again at once (with the same `webhook-id`), whatever its state, and answers it with the new attempt.",
    ...manage,
    request: { params: deliveryIdParamsSchema },
    responses: {
      200: ok("The delivery with its new attempt.", deliverySchema),
      400: invalidPath,
      404: errorResponse(404, ["not_found"], {}, "No such endpoint among this key's, or no such delivery of it."),
      409: errorResponse(409, ["delivery_in_progress"], {}, "An attempt of this delivery is in progress; look at the log shortly."),
      ...commonErrors(),
    },
  });

  // What we POST to your endpoint.
  const signedHeaders = z.object({
    "webhook-id": z.string().meta({ description: "The event id: the same on every retry of it. Deduplicate on it.", example: "evt_42" }),
    "webhook-timestamp": z
      .string()
      .meta({ description: "Unix seconds when this attempt was signed. Refuse ones far from now (replays).", example: "1795429530" }),
    "webhook-signature": z.string().meta({
      description:
        "`v1,` + base64 HMAC-SHA256, keyed with your secret (base64 after `whsec_`), of `<webhook-id>.<webhook-timestamp>.<body>`. Several space-separated signatures after a rotation: one valid is enough. Verify with the `standardwebhooks` package.",
      example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    }),
  });
  const acknowledge = {
    200: { description: "Any 2xx within 10 seconds acknowledges the event. Anything else (or no answer) is retried with the same `webhook-id`." },
    410: { description: "Gone: we disable the endpoint and stop sending." },
  };
  for (const [name, schema, description] of [
    ["pet.created", petCreatedEventSchema, "An animal was added."],
    ["pet.updated", petUpdatedEventSchema, "An animal changed: its status (an adoption!), name or category. `data.previous` holds the old values."],
    [
      "pet.stay.started",
      petStayStartedEventSchema,
      "A stay of an animal started: a new intake (the animal is back in care, `available`). `data.stay` is the stay.",
    ],
    [
      "pet.stay.ended",
      petStayEndedEventSchema,
      "A stay of an animal ended: `data.stay.outcome` says how (adoption: the animal is `sold`; anything else: out of care, off every public list).",
    ],
    ["webhook.test", testEventSchema, "Sent when you call `POST /webhooks/{webhookId}/test`."],
  ] as const) {
    registry.registerWebhook({
      method: "post",
      path: name,
      operationId: `${name.replaceAll(".", "-")}-event`,
      summary: name,
      description: `${description} The body is the event exactly as \`GET /events\` returns it.`,
      tags: ["webhooks"],
      security: [],
      request: { headers: signedHeaders, body: { required: true, content: json(schema) } },
      responses: acknowledge,
    });
  }
}
