import { withApi, otherMethods } from "@/lib/http/handler";
import { linkHeader, withParam } from "@/lib/core/pagination";
import { listEventsQuerySchema } from "@/lib/events/schemas";
import { listEvents } from "@/lib/events/service";
import { petView } from "@/lib/pets/present";

// GET /v1/events - the change feed, oldest first; pass the last id you saw as `after`
export const GET = withApi({ scope: "pets:read", tenant: "caller", query: listEventsQuerySchema }, async ({ query, url, now, caller }) => {
  const { events, next } = await listEvents(query, petView(now, url.origin), caller.tenancy);
  return { body: events, headers: { Link: linkHeader({ next: next && withParam(url, "after", next) }) } };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
