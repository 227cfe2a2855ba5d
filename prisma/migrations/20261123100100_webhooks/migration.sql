-- Issue 13: webhook endpoints (owned by API keys), one delivery per event
-- and endpoint with its schedule and lease, and every attempt
-- (docs/decisions/006-webhook-delivery.md). The job queue's own tables live
-- in the graphile_worker schema, which graphile-worker migrates itself.

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" BIGSERIAL NOT NULL,
    "api_key_id" BIGINT NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "events" TEXT[],
    "description" VARCHAR(500),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" VARCHAR(300),
    "disabled_at" TIMESTAMPTZ(3),
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "start_after" BIGINT NOT NULL,
    "failing_since" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_attempt_ok" BOOLEAN,
    "last_status_code" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "endpoint_id" BIGINT NOT NULL,
    "event_position" BIGINT NOT NULL,
    "event_type" VARCHAR(40) NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),
    "lease_owner" VARCHAR(64),
    "lease_token" CHAR(36),
    "enqueued_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- By hand (Prisma cannot express storage parameters): a delivery's row is
-- updated when claimed and again when settled; room left on each page lets
-- the claim (which changes no indexed column) update in place (HOT),
-- without new index entries.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 70);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" BIGINT NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" VARCHAR(40),
    "error_detail" VARCHAR(300),
    "response_body" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_api_key_id_id_idx" ON "webhook_endpoints"("api_key_id", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_id_idx" ON "webhook_deliveries"("endpoint_id", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
-- Event first: it also serves the cascade when the sweep deletes events.
CREATE UNIQUE INDEX "webhook_deliveries_event_position_endpoint_id_key" ON "webhook_deliveries"("event_position", "endpoint_id");

-- CreateIndex
CREATE INDEX "webhook_attempts_delivery_id_id_idx" ON "webhook_attempts"("delivery_id", "id");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
-- Deliveries go with their event when the 30-day sweep deletes it.
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_position_fkey" FOREIGN KEY ("event_position") REFERENCES "events"("position") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
