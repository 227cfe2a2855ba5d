import { withApi, otherMethods } from "@/lib/http/handler";
import { linkHeader, withParam } from "@/lib/core/pagination";
import { listEventsQuerySchema } from "@/lib/events/schemas";
import { listEvents } from "@/lib/events/service";
import { petView } from "@/lib/pets/present";
import { viewerOf } from "@/lib/visibility/policy";

// GET /v1/events - the change feed, oldest first; pass the last id you saw as `after` (what each reader sees of it: lib/visibility)
export const GET = withApi({ scope: "pets:read", tenant: "caller", query: listEventsQuerySchema }, async ({ query, url, now, caller }) => {
  const { events, next } = await listEvents(query, petView(now, url.origin), viewerOf(caller));
  return { body: events, headers: { Link: linkHeader({ next: next && withParam(url, "after", next) }) } };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
