import { applicationIdParamsSchema, transitionSchema } from "@/lib/applications/schemas";
import { transitionApplication } from "@/lib/applications/service";
import { staffOf } from "@/lib/http/actor";
import { otherMethods, withApi } from "@/lib/http/handler";

// POST /v1/applications/{applicationId}/transitions - a staff step: review, approve, decline, complete, cancel
export const POST = withApi(
  { scope: "applications:manage", params: applicationIdParamsSchema, body: transitionSchema },
  async ({ params, body, caller, requestId }) => {
    const staff = staffOf(caller);
    return { body: await transitionApplication(params.applicationId, body, { staff: { id: Number(staff.id), email: staff.email }, requestId }) };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
