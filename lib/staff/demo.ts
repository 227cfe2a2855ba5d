import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/staff/password";

// The demo staff login is published (README, the start banner): it exists
// only where that is harmless: the embedded default database, development,
// or a demo deployment that says so with SEED_DEMO_STAFF=true.

export const DEMO_STAFF = { email: "demo@petstore.test", password: "adopt-a-pet-demo" } as const;

/** True while the demo account exists with its published password. */
export async function demoLoginActive(): Promise<boolean> {
  const row = await db().staffUser.findUnique({ where: { email: DEMO_STAFF.email }, select: { passwordHash: true } });
  return row !== null && (await verifyPassword(DEMO_STAFF.password, row.passwordHash));
}
