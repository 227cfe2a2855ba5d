-- Failed staff sign-ins and lock-outs, per account and client address and
-- per client address (lib/staff/throttle.ts).
CREATE TABLE "sign_in_throttles" (
    "key" VARCHAR(120) NOT NULL,
    "email" VARCHAR(254),
    "address" VARCHAR(64) NOT NULL,
    "attempts" INTEGER NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "window_seconds" INTEGER NOT NULL,
    "locked_until" TIMESTAMPTZ(3),
    "lockouts" INTEGER NOT NULL DEFAULT 0,
    "last_locked_at" TIMESTAMPTZ(3),

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "sign_in_throttles_locked_until_idx" ON "sign_in_throttles"("locked_until");
