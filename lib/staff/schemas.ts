import { z } from "zod";

export const emailSchema = z
  .string({ error: "is required" })
  .trim()
  .toLowerCase()
  .pipe(z.email("must be an email address").max(254, "must be at most 254 characters"))
  // The piped check's format and length, stated on the input the document shows.
  .meta({ format: "email", maxLength: 254 });

export const newPasswordSchema = z.string({ error: "is required" }).min(12, "must be at least 12 characters").max(200, "must be at most 200 characters");

export const newStaffSchema = z.object({ email: emailSchema, password: newPasswordSchema });
export type NewStaff = z.infer<typeof newStaffSchema>;

export const signInSchema = z
  .strictObject({
    email: emailSchema,
    // No length rules on sign-in: any wrong password is simply wrong.
    password: z.string({ error: "is required" }).min(1, "is required").max(200, "must be at most 200 characters"),
  })
  .meta({ id: "SignIn" });
export type SignIn = z.infer<typeof signInSchema>;

export const sessionInfoSchema = z
  .object({
    kind: z.enum(["anonymous", "staff"]),
    email: z.string().nullable(),
    scopes: z.array(z.string()),
    /** The organisation whose data a staff member sees; null for adopters and platform admins. */
    organizationId: z.number().int().nullable(),
    /** Runs the service: sees every organisation's data, and adds organisations. */
    platformAdmin: z.boolean(),
  })
  .meta({ id: "SessionInfo" });
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** A signed-in staff member: who, and whose data they see (an organisation's, or every one's for a platform admin). */
export interface StaffIdentity {
  id: bigint;
  email: string;
  organizationId: bigint | null;
  platformAdmin: boolean;
}
