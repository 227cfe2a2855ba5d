import { z } from "zod";
import { LIMIT_MAX, queryInteger } from "@/lib/core/schemas";

// The audit trail's shapes: who changed an animal, when, in which request,
// and its fields before and after. Staff read it (GET
// /v1/pets/{petId}/history, the detail page, `cli audit`); partners never do.

/** Who made a change, as the write path knows it. A key's name is looked up when the record is written. */
export type Actor = { kind: "api_key"; id: number } | { kind: "staff"; id: number; email: string };

/** What every change to an animal carries besides the change itself. */
export interface WriteContext {
  actor: Actor;
  /** The request's X-Request-Id, so a record leads to the log lines of its request. */
  requestId: string;
}

/** created/updated, the changes of an animal's stays (lib/stays): a new intake, an outcome, a correction; and of its placements in foster homes (lib/placements). */
export const AUDIT_ACTIONS = [
  "created",
  "updated",
  "stay_started",
  "stay_ended",
  "stay_corrected",
  "placement_started",
  "placement_ended",
  "placement_corrected",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const historyActorSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("api_key"), id: z.number().int(), name: z.string().meta({ description: "The key's name when the change was made." }) }),
  z.object({ kind: z.literal("staff"), id: z.number().int(), email: z.string().meta({ description: "The staff account's email when the change was made." }) }),
]);
export type HistoryActor = z.infer<typeof historyActorSchema>;

export const HISTORY_LIMIT_DEFAULT = 50;

export const historyQuerySchema = z.object({
  limit: queryInteger(1, LIMIT_MAX, "int32").default(HISTORY_LIMIT_DEFAULT).meta({ default: HISTORY_LIMIT_DEFAULT }),
  cursor: z.string().min(1, "must not be empty").optional(),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;
