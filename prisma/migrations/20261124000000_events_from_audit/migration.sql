-- Events are written at commit from the audit records (issue 10: speed;
-- docs/decisions/005-change-feed-order.md).
--
-- Until now the write path inserted each event itself, with a NULL position,
-- and a deferred trigger numbered it at commit: two row versions per event
-- (and their index entries), and one more statement per change. The audit
-- record of a change already holds everything its event says (the animal
-- after the change, the changed fields before it, created or updated), and
-- every change writes exactly one. So the event is now written once, at
-- commit, from its audit record, with its position: no change can be
-- recorded without being announced, whoever writes it.
--
-- Unchanged: positions are taken at COMMIT under a transaction-level advisory
-- lock released only once the commit is visible, so they follow commit order
-- and a reader that sees 42 has already been able to see 41.

DROP TRIGGER "events_assign_position" ON "events";
DROP FUNCTION "events_assign_position"();

-- A committed event always had its position (the old trigger gave it before
-- the commit ended); a row without one was never visible in the feed.
DELETE FROM "events" WHERE "position" IS NULL;

-- The position is the event's key: the internal insertion id goes.
ALTER TABLE "events" DROP CONSTRAINT "events_pkey";
ALTER TABLE "events" DROP COLUMN "id";
ALTER TABLE "events" ALTER COLUMN "position" SET NOT NULL;
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY USING INDEX "events_position_key";

CREATE FUNCTION "pet_audit_announce"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- (7411, 1): the feed's commit-order lock (two-key form, apart from any one-key lock).
  PERFORM pg_advisory_xact_lock(7411, 1);
  INSERT INTO "events" ("position", "type", "pet_id", "data", "created_at")
  VALUES (
    nextval('events_position_seq'),
    CASE NEW."action" WHEN 'created' THEN 'pet.created' ELSE 'pet.updated' END,
    NEW."pet_id",
    -- `previous`: the changed fields' old values, absent on creation.
    CASE WHEN NEW."before" IS NULL OR jsonb_typeof(NEW."before") = 'null'
         THEN jsonb_build_object('pet', NEW."after")
         ELSE jsonb_build_object('pet', NEW."after", 'previous', NEW."before") END,
    clock_timestamp()
  );
  -- Wakes webhook dispatch on every instance (LISTEN petstore_events), delivered at commit.
  PERFORM pg_notify('petstore_events', '');
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "pet_audit_announce"
AFTER INSERT ON "pet_audit"
DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION "pet_audit_announce"();
