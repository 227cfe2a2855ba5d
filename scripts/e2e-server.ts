/**
 * The end-to-end suite's server: a freshly recreated database and empty
 * rate-limit counters (so every run starts from the same seed, and key ids
 * that restart at 1 meet no counts of an earlier run), a mail server of the
 * suite's own that the app sends to (SMTP_URL; what arrives is written to
 * E2E_MAILBOX for the tests, scripts/e2e-mail.ts), then the ordinary
 * launcher's `start` (whose server runs the job queue that sends the mail).
 */
import "./require-node";
import { Redis } from "ioredis";
import { createDatabaseIfMissing, dropDatabase } from "./database";
import { E2E_MAIL_FROM, startMailCatcher } from "./e2e-mail";
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
// The mail server runs in this process, which outlives the app it launches.
const mailbox = process.env.E2E_MAILBOX;
if (!mailbox) throw new Error("E2E_MAILBOX is required (playwright.config.ts sets it)");
process.env.SMTP_URL = (await startMailCatcher(mailbox)).url;
process.env.MAIL_FROM = E2E_MAIL_FROM;
await main(["start"]);
