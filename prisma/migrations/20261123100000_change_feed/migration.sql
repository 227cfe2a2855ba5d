-- Issue 13: the change feed. Every create and update of an animal appends an
-- event in the transaction of the change (lib/events/); partners read them in
-- order (GET /v1/events) and webhooks deliver them
-- (docs/decisions/005-change-feed-order.md).

-- CreateTable
CREATE TABLE "events" (
    "id" BIGSERIAL NOT NULL,
    "position" BIGINT,
    "type" VARCHAR(40) NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_marks" (
    "name" VARCHAR(40) NOT NULL,
    "position" BIGINT NOT NULL,

    CONSTRAINT "event_marks_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "events_position_key" ON "events"("position");

-- CreateIndex
CREATE INDEX "events_type_position_idx" ON "events"("type", "position");

-- CreateIndex
CREATE INDEX "events_created_at_idx" ON "events"("created_at");

-- Written by hand from here (Prisma cannot express sequences without a
-- default, nor triggers).
--
-- An event's public position is taken at COMMIT, not at INSERT, and under
-- a transaction-level advisory lock that is released only after the commit
-- is visible. So positions follow commit order: when a reader sees position
-- 42, every smaller position has either committed already or never will
-- (rolled back). A position taken at insert time would not give that: a
-- transaction holding 41 may commit after the one holding 42, and a reader
-- that moved past 42 would never see 41.
--
-- The lock is held only from this trigger (deferred to commit) to the end
-- of the commit, so writers run in parallel until their last moment.
CREATE SEQUENCE "events_position_seq" AS BIGINT OWNED BY "events"."position";

CREATE FUNCTION "events_assign_position"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- (7411, 1): the feed's commit-order lock (two-key form, apart from any one-key lock).
  PERFORM pg_advisory_xact_lock(7411, 1);
  UPDATE "events"
     SET "position" = nextval('events_position_seq'), "created_at" = clock_timestamp()
   WHERE "id" = NEW."id";
  -- Wakes webhook dispatch on every instance (LISTEN petstore_events), delivered at commit.
  PERFORM pg_notify('petstore_events', '');
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "events_assign_position"
AFTER INSERT ON "events"
DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION "events_assign_position"();

-- How far the retention sweep has deleted (older cursors answer 410) and how
-- far webhook dispatch has read. Missing rows count as 0.
INSERT INTO "event_marks" ("name", "position") VALUES ('swept', 0), ('dispatched', 0);
