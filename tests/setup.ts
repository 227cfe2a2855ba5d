/**
 * Per-file setup: point the app's one Prisma client at the test database and
 * start every file from empty tables (categories re-seeded), so files cannot
 * leak state into each other.
 */
import { afterAll, beforeAll, inject } from "vitest";

// This worker's own database (tests/global-setup.ts made one per worker).
const databaseUrls = inject("databaseUrls");
process.env.DATABASE_URL = databaseUrls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % databaseUrls.length];
process.env.LOG_LEVEL ??= "silent";
process.env.SESSION_SECRET ??= "a-test-session-secret-of-at-least-32-characters";
// Most files make dozens of requests as one caller within a minute; the
// limiter is off for them and switched on by the files that test it
// (tests/api/rate-limit*.test.ts) with enableRateLimit().
process.env.RATE_LIMIT_ENABLED ??= "false";

beforeAll(async () => {
  const { resetDatabase } = await import("./db");
  await resetDatabase();
});

afterAll(async () => {
  const { disconnectDb } = await import("@/lib/db");
  const { stopKeyCache } = await import("@/lib/keys/cache");
  await stopKeyCache();
  await disconnectDb();
});
