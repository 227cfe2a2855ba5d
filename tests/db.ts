import { db } from "@/lib/db";
import { FEED_READERS } from "@/lib/events/feed-reader";
import { QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { CATEGORIES, FIRST_ORGANIZATION } from "@/prisma/seed";

/** Empties every table (keeping the migrations record) and the job queue, and restores the categories. */
export async function resetDatabase(): Promise<void> {
  const prisma = db();
  const tables = await prisma.$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
  if (tables.length) {
    const list = tables.map((t) => `"public"."${t.tablename}"`).join(", ");
    await prisma.$executeRawUnsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
  }
  // The job queue lives in the same database: a job an earlier file queued
  // (a delivery retry due later, a mail) would otherwise still be waiting.
  const queue = await prisma.$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = ${QUEUE_SCHEMA} AND tablename IN ('_private_jobs', '_private_job_queues')`;
  if (queue.length) {
    await prisma.$executeRawUnsafe(`TRUNCATE ${queue.map((t) => `"${QUEUE_SCHEMA}"."${t.tablename}"`).join(", ")} CASCADE`);
  }
  await prisma.category.createMany({ data: CATEGORIES.map((name) => ({ name })) });
  // The first organisation, as the migration leaves it (id 1): a one-shelter install.
  await prisma.organization.create({ data: { ...FIRST_ORGANIZATION } });
  // As the migrations leave them, on an empty feed: each feed reader's mark (read FOR UPDATE, so it must exist) and the sweep's.
  await prisma.$executeRaw`INSERT INTO event_marks (name, position) SELECT m, 0 FROM unnest(${["swept", ...Object.keys(FEED_READERS)]}::text[]) m`;
  // As the migration leaves it: stored age groups are up to date today.
  await prisma.$executeRaw`INSERT INTO age_group_refresh (refreshed_on) VALUES ((now() AT TIME ZONE 'UTC')::date)`;
}
