-- Issue 42 (docs/decisions/023): a change to an animal's stays is a change to
-- the animal, written by lib/stays with the animal's version bump and its
-- audit record, in one transaction. The record says which kind of change it
-- was and keeps the stay after it; the change feed announces it from the
-- record at commit, as every other change:
--   stay_started   -> pet.stay.started  (a new intake)
--   stay_ended     -> pet.stay.ended    (an outcome; adoption included)
--   stay_corrected -> pet.updated       (a date, type or subtype corrected)
-- An event's `data.stay` is the stay after the change, when there was one.
-- New enum values are not used in this migration (PostgreSQL forbids using
-- them in the transaction that adds them).

ALTER TYPE "AuditAction" ADD VALUE 'stay_started';
ALTER TYPE "AuditAction" ADD VALUE 'stay_ended';
ALTER TYPE "AuditAction" ADD VALUE 'stay_corrected';

ALTER TABLE "pet_audit" ADD COLUMN "stay" JSONB;

CREATE OR REPLACE FUNCTION "pet_audit_announce"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- (7411, 1): the feed's commit-order lock (two-key form, apart from any one-key lock).
  PERFORM pg_advisory_xact_lock(7411, 1);
  INSERT INTO "events" ("position", "type", "pet_id", "organization_id", "data", "created_at")
  VALUES (
    nextval('events_position_seq'),
    CASE NEW."action"::text
      WHEN 'created' THEN 'pet.created'
      WHEN 'stay_started' THEN 'pet.stay.started'
      WHEN 'stay_ended' THEN 'pet.stay.ended'
      ELSE 'pet.updated' END,
    NEW."pet_id",
    COALESCE((NEW."after" ->> 'organizationId')::bigint, (SELECT "organization_id" FROM "pets" WHERE "id" = NEW."pet_id")),
    -- `previous`: the changed fields' old values, absent on creation;
    -- `stay`: the stay a stay change made, absent otherwise.
    jsonb_build_object('pet', NEW."after")
      || CASE WHEN NEW."before" IS NULL OR jsonb_typeof(NEW."before") = 'null' THEN '{}'::jsonb ELSE jsonb_build_object('previous', NEW."before") END
      || CASE WHEN NEW."stay" IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('stay', NEW."stay") END,
    clock_timestamp()
  );
  -- Wakes webhook dispatch on every instance (LISTEN petstore_events), delivered at commit.
  PERFORM pg_notify('petstore_events', '');
  RETURN NULL;
END;
$$;
