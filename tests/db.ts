import { db } from "@/lib/db";
import { CATEGORIES } from "@/prisma/seed";

/** Empties every table (keeping the migrations record) and restores the categories. */
export async function resetDatabase(): Promise<void> {
  const prisma = db();
  const tables = await prisma.$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
  if (tables.length) {
    const list = tables.map((t) => `"public"."${t.tablename}"`).join(", ");
    await prisma.$executeRawUnsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
  }
  await prisma.category.createMany({ data: CATEGORIES.map((name) => ({ name })) });
  // As the migration leaves it: stored age groups are up to date today.
  await prisma.$executeRaw`INSERT INTO age_group_refresh (refreshed_on) VALUES ((now() AT TIME ZONE 'UTC')::date)`;
}
