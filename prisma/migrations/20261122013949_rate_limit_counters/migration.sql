-- CreateTable
-- UNLOGGED by hand (Prisma cannot express it): rate-limit counters are not
-- precious; skipping the WAL keeps one upsert per request cheap. A crash
-- forgets the counts, an accepted loss for a limiter (docs/decisions/003).
CREATE UNLOGGED TABLE "rate_limit_counters" (
    "key" VARCHAR(200) NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "hits" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("key","window_start")
);

-- CreateIndex
CREATE INDEX "rate_limit_counters_expires_at_idx" ON "rate_limit_counters"("expires_at");
