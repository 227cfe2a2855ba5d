import { db } from "@/lib/db";
import { ApiError, notFound } from "@/lib/core/errors";
import type { NewStaff } from "@/lib/staff/schemas";
import { DEMO_STAFF } from "@/lib/staff/demo";
import { decoyHash, hashPassword, verifyPassword } from "@/lib/staff/password";
import type { StaffIdentity } from "@/lib/staff/schemas";

/** Whose data an account sees: one organisation's, or (a platform admin, who runs the service) every one's. */
export type StaffRole = { organizationId: number } | { platformAdmin: true };

export async function createStaff(input: NewStaff, role: StaffRole): Promise<{ id: number; email: string }> {
  const existing = await db().staffUser.findUnique({ where: { email: input.email }, select: { id: true } });
  if (existing) throw new ApiError(400, "invalid_body", `A staff account for ${input.email} already exists.`, [{ field: "email", issue: "is taken" }]);
  const row = await db().staffUser.create({
    data: {
      email: input.email,
      passwordHash: await hashPassword(input.password),
      ...("platformAdmin" in role ? { platformAdmin: true } : { organizationId: BigInt(role.organizationId) }),
    },
    select: { id: true, email: true },
  });
  return { id: Number(row.id), email: row.email };
}

/** The staff user for these credentials, or null. Same cost whether or not the email exists. */
export async function checkCredentials(email: string, password: string): Promise<StaffIdentity | null> {
  const row = await db().staffUser.findUnique({
    where: { email },
    select: { id: true, email: true, passwordHash: true, organizationId: true, platformAdmin: true },
  });
  const ok = await verifyPassword(password, row?.passwordHash ?? (await decoyHash()));
  return row && ok ? { id: row.id, email: row.email, organizationId: row.organizationId, platformAdmin: row.platformAdmin } : null;
}

/** A new password; every session of the account ends (whoever held the old one is signed out). Returns how many ended. */
export async function setStaffPassword(email: string, password: string): Promise<number> {
  const row = await db().staffUser.findUnique({ where: { email }, select: { id: true } });
  if (!row) throw notFound(`There is no staff account for ${email}.`);
  const passwordHash = await hashPassword(password);
  const [, ended] = await db().$transaction([
    db().staffUser.update({ where: { id: row.id }, data: { passwordHash }, select: { id: true } }),
    db().session.deleteMany({ where: { staffUserId: row.id } }),
  ]);
  return ended.count;
}

/** Deletes an account; its sessions go with it (cascade). */
export async function deleteStaff(email: string): Promise<void> {
  const { count } = await db().staffUser.deleteMany({ where: { email } });
  if (!count) throw notFound(`There is no staff account for ${email}.`);
}

export interface StaffSummary {
  id: number;
  email: string;
  createdAt: string;
  activeSessions: number;
  /** Still has the published demo password (lib/staff/demo.ts). */
  demoPassword: boolean;
  /** null for a platform admin. */
  organizationId: number | null;
  platformAdmin: boolean;
}

export async function listStaff(now: Date): Promise<StaffSummary[]> {
  const rows = await db().staffUser.findMany({
    orderBy: { id: "asc" },
    select: {
      id: true,
      email: true,
      createdAt: true,
      passwordHash: true,
      organizationId: true,
      platformAdmin: true,
      _count: { select: { sessions: { where: { expiresAt: { gt: now } } } } },
    },
  });
  return Promise.all(
    rows.map(async (r) => ({
      id: Number(r.id),
      email: r.email,
      createdAt: r.createdAt.toISOString(),
      activeSessions: r._count.sessions,
      demoPassword: r.email === DEMO_STAFF.email && (await verifyPassword(DEMO_STAFF.password, r.passwordHash)),
      organizationId: r.organizationId === null ? null : Number(r.organizationId),
      platformAdmin: r.platformAdmin,
    })),
  );
}
