-- Issue 48 (docs/decisions/027): stays are the organisation's records. The
-- change feed and webhooks show them only to the organisation's staff and its
-- keys with records:read (and the platform's readers of records); everyone
-- else sees an animal that leaves care as one neutral `pet.unlisted`, nothing
-- while it is out of care, and a `pet.listed` when it comes back.
--
-- How an event looks to those other readers is decided once, at commit, by
-- the trigger that writes it: `events.public_type`, null when they are not
-- shown it. It needs whether the animal was listed before the change, which
-- the row no longer says at commit: `pets.feed_listed` keeps what the feed
-- last told them (in care, at its last event).

ALTER TABLE "pets" ADD COLUMN "feed_listed" BOOLEAN NOT NULL DEFAULT true;
UPDATE "pets" SET "feed_listed" = false WHERE NOT "in_care";

ALTER TABLE "events" ADD COLUMN "public_type" VARCHAR(40);

-- Events already written: replay each animal's events in order. An outcome
-- other than adoption takes it out of care, an intake brings it back, and an
-- animal is listed from its creation.
WITH marked AS (
  SELECT position, pet_id, type,
         CASE WHEN type = 'pet.stay.ended' AND COALESCE(data -> 'stay' -> 'outcome' ->> 'type', 'adoption') <> 'adoption' THEN false
              WHEN type IN ('pet.stay.started', 'pet.created') THEN true END AS sets
    FROM events
), grouped AS (
  SELECT *, count(sets) OVER (PARTITION BY pet_id ORDER BY position) AS grp FROM marked
), states AS (
  SELECT position, pet_id, type,
         COALESCE(first_value(sets) OVER (PARTITION BY pet_id, grp ORDER BY position), true) AS listed_after
    FROM grouped
), paired AS (
  SELECT position, type, listed_after,
         CASE WHEN type = 'pet.created' THEN false
              ELSE COALESCE(lag(listed_after) OVER (PARTITION BY pet_id ORDER BY position), true) END AS listed_before
    FROM states
)
UPDATE events e
   SET public_type = CASE
         WHEN p.listed_before AND p.listed_after THEN CASE
           WHEN e.data ? 'stay' AND COALESCE(e.data -> 'previous', '{}'::jsonb) = '{}'::jsonb THEN NULL
           WHEN p.type IN ('pet.stay.started', 'pet.stay.ended') THEN 'pet.updated' ELSE p.type END
         WHEN p.listed_after THEN CASE WHEN p.type = 'pet.created' THEN 'pet.created' ELSE 'pet.listed' END
         WHEN p.listed_before THEN 'pet.unlisted'
       END
  FROM paired p
 WHERE e.position = p.position;

CREATE INDEX "events_public_type_position_idx" ON "events" ("public_type", "position") WHERE "public_type" IS NOT NULL;

CREATE OR REPLACE FUNCTION "pet_audit_announce"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  written text;
  shown text;
  was_listed boolean;
  kept boolean;
  now_listed boolean;
BEGIN
  -- (7411, 1): the feed's commit-order lock (two-key form, apart from any one-key lock).
  PERFORM pg_advisory_xact_lock(7411, 1);
  written := CASE NEW."action"::text
      WHEN 'created' THEN 'pet.created'
      WHEN 'stay_started' THEN 'pet.stay.started'
      WHEN 'stay_ended' THEN 'pet.stay.ended'
      ELSE 'pet.updated' END;
  -- At commit the row is the transaction's last word: listed now is in_care
  -- now; listed before is what the feed last said (nothing, for a creation).
  SELECT "in_care", "feed_listed" INTO now_listed, kept FROM "pets" WHERE "id" = NEW."pet_id";
  now_listed := COALESCE(now_listed, false);
  was_listed := CASE WHEN written = 'pet.created' THEN false ELSE COALESCE(kept, true) END;
  shown := CASE
      -- Listed before and after: a change of the records alone (a stay that
      -- changed none of the animal's fields: the outcome of a sale already
      -- announced by its pet.updated, a correction) is not shown; a stay's
      -- change that changed the animal (its status) is shown as that change.
      WHEN was_listed AND now_listed THEN CASE
        WHEN NEW."stay" IS NOT NULL AND (NEW."before" IS NULL OR jsonb_typeof(NEW."before") = 'null' OR NEW."before" = '{}'::jsonb) THEN NULL
        WHEN written IN ('pet.stay.started', 'pet.stay.ended') THEN 'pet.updated' ELSE written END
      WHEN now_listed THEN CASE WHEN written = 'pet.created' THEN 'pet.created' ELSE 'pet.listed' END
      WHEN was_listed THEN 'pet.unlisted'
    END;
  IF kept IS DISTINCT FROM now_listed THEN
    UPDATE "pets" SET "feed_listed" = now_listed WHERE "id" = NEW."pet_id";
  END IF;
  INSERT INTO "events" ("position", "type", "public_type", "pet_id", "organization_id", "data", "created_at")
  VALUES (
    nextval('events_position_seq'),
    written,
    shown,
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
