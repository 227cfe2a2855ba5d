import { historyQuerySchema } from "@/lib/audit/schemas";
import { withApi, otherMethods } from "@/lib/http/handler";
import { linkHeader, withCursor } from "@/lib/core/pagination";
import { petIdParamsSchema } from "@/lib/pets/schemas/params";
import { petView } from "@/lib/pets/present";
import { listPetHistory } from "@/lib/pets/reads";
import { petOwner } from "@/lib/http/tenant";

// GET /v1/pets/{petId}/history - staff: the animal's audit trail, newest first (never API keys)
export const GET = withApi(
  { scope: "audit:read", tenant: petOwner, params: petIdParamsSchema, query: historyQuerySchema },
  async ({ params, query, url, now }) => {
    const { entries, next } = await listPetHistory(params.petId, query, petView(now, url.origin));
    return { body: entries, headers: { Link: linkHeader({ next: next && withCursor(url, next) }) } };
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
