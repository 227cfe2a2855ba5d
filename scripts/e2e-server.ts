/**
 * The end-to-end suite's server: a freshly recreated database and empty
 * rate-limit counters (so every run starts from the same seed, and key ids
 * that restart at 1 meet no counts of an earlier run), then the ordinary
 * launcher's `start`.
 */
import { Redis } from "ioredis";
import { createDatabaseIfMissing, dropDatabase } from "./database";
import { main } from "./launch";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
await dropDatabase(url);
await createDatabaseIfMissing(url);
// The deployment tests run instances on Redis (TEST_REDIS_URL): its database is the suite's own.
if (process.env.TEST_REDIS_URL) {
  const redis = new Redis(process.env.TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  await redis.flushdb();
  await redis.quit();
}
await main(["start"]);
