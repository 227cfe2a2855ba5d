/**
 * Per-file setup: point the app's one Prisma client at the test database and
 * start every file from empty tables (categories re-seeded), so files cannot
 * leak state into each other.
 */
import { afterAll, beforeAll, inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.LOG_LEVEL ??= "silent";

beforeAll(async () => {
  const { resetDatabase } = await import("./db");
  await resetDatabase();
});

afterAll(async () => {
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
});
