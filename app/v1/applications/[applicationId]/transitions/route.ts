import { applicationIdParamsSchema, transitionSchema } from "@/lib/applications/schemas";
import { transitionApplication } from "@/lib/applications/service";
import { staffOf } from "@/lib/http/actor";
import { ifMatchVersions } from "@/lib/core/conditional";
import { otherMethods, withApi } from "@/lib/http/handler";
import { applicationOwner } from "@/lib/http/tenant";

// POST /v1/applications/{applicationId}/transitions - a staff step: review, approve, decline, complete, cancel
// (If-Match: the animal's ETag, for the steps that change the animal)
export const POST = withApi(
  { scope: "applications:manage", tenant: applicationOwner, params: applicationIdParamsSchema, body: transitionSchema },
  async ({ params, body, caller, request, requestId }) => {
    const staff = staffOf(caller);
    const context = { staff: { id: Number(staff.id), email: staff.email }, tenancy: caller.tenancy, requestId, expectedVersions: ifMatchVersions(request) };
    return { body: await transitionApplication(params.applicationId, body, context) };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
