import { z } from "zod";
import { AUDIT_ACTIONS, historyActorSchema } from "@/lib/audit/schemas";
import { petFieldsSchema, petSchema } from "@/lib/pets/schemas/pet";
import { placementSchema } from "@/lib/placements/schemas";
import { staySchema } from "@/lib/stays/schemas";

// One entry of an animal's history as the API returns it: the audit record
// (lib/audit, below the pets) shown as the animal it describes.

export const historyEntrySchema = z
  .object({
    id: z.number().int(),
    action: z.enum(AUDIT_ACTIONS),
    at: z.string().meta({ format: "date-time" }),
    /** The animal's version after the change. */
    version: z.number().int(),
    requestId: z.string(),
    actor: historyActorSchema,
    /** The changed fields' previous values; null for a creation. */
    before: petFieldsSchema.partial().nullable(),
    /** The whole animal after the change. */
    after: petSchema,
    stay: staySchema.optional().meta({
      description: "The stay after the change, for a change of the animal's stays (`stay_*` actions, and a status change that ended or reopened one).",
    }),
    placements: z.array(placementSchema).optional().meta({
      description:
        "The placements in foster homes the change wrote (`placement_*` actions, and an outcome that ended the open placement): an ended one first, then the one it started. The foster by person id only.",
    }),
  })
  .meta({ id: "PetHistoryEntry" });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
