import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/errors";
import type { NewStaff } from "@/lib/staff/schemas";
import { decoyHash, hashPassword, verifyPassword } from "@/lib/staff/password";

export async function createStaff(input: NewStaff): Promise<{ id: number; email: string }> {
  const existing = await db().staffUser.findUnique({ where: { email: input.email }, select: { id: true } });
  if (existing) throw new ApiError(400, "invalid_body", `A staff account for ${input.email} already exists.`, [{ field: "email", issue: "is taken" }]);
  const row = await db().staffUser.create({
    data: { email: input.email, passwordHash: await hashPassword(input.password) },
    select: { id: true, email: true },
  });
  return { id: Number(row.id), email: row.email };
}

/** The staff user for these credentials, or null. Same cost whether or not the email exists. */
export async function checkCredentials(email: string, password: string): Promise<{ id: bigint; email: string } | null> {
  const row = await db().staffUser.findUnique({ where: { email }, select: { id: true, email: true, passwordHash: true } });
  const ok = await verifyPassword(password, row?.passwordHash ?? (await decoyHash()));
  return row && ok ? { id: row.id, email: row.email } : null;
}
