-- Issue 50: fosters. An organisation's people (personal data: name, email,
-- phone, home, private notes), some of them fosters, and the placements that
-- say where each animal lives inside its stay (docs/decisions/028).
--
-- What the database holds whatever the path (as it does for stays):
--   - an email names one person of an organisation, case-insensitively;
--   - a foster's capacity is 1..50, and a foster has a status and a capacity or neither;
--   - an animal has at most one open placement, and its placements never overlap
--     ([start_at, end_at): moving to another foster ends one and starts the next
--     at the same instant);
--   - a placement lies inside one stay of the same animal: it starts at or after
--     the stay's intake and, once the stay has an outcome, ends at or before it
--     (checked at commit, so a transaction may end the stay and the placement in
--     either order);
--   - an ended placement has a reason, an open one has none.

CREATE TYPE "FosterStatus" AS ENUM ('applicant', 'active', 'paused', 'inactive', 'doNotPlace');
CREATE TYPE "PlacementEndReason" AS ENUM ('returnedToShelter', 'movedToAnotherFoster', 'stayEnded', 'other');

-- Where an organisation's fostered animals are shown to adopters: at their
-- foster home's city (and, for near search, its postcode's centre), or at the
-- organisation's own place.
ALTER TABLE "organizations" ADD COLUMN "foster_location" VARCHAR(20) NOT NULL DEFAULT 'fosterHome'
  CONSTRAINT "organizations_foster_location_check" CHECK ("foster_location" IN ('fosterHome', 'organization'));

CREATE TABLE "people" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" BIGINT NOT NULL,
    -- Null once the person is erased (their placements stay, as a former foster's).
    "name" VARCHAR(100),
    "email" VARCHAR(254),
    "phone" VARCHAR(40),
    "street" VARCHAR(200),
    "city" VARCHAR(100),
    "region" VARCHAR(100),
    "postcode" VARCHAR(20),
    "country" CHAR(2),
    -- The home's position: a US ZIP code's centre (never the street's).
    "lat" DOUBLE PRECISION,
    "lng" DOUBLE PRECISION,
    "earth_point" "public"."cube" GENERATED ALWAYS AS ("public"."geo_point"("lat", "lng")) STORED,
    "notes" VARCHAR(5000),
    "foster_status" "FosterStatus",
    "foster_capacity" INTEGER,
    -- The report's species the foster takes (dog, cat, other); empty: any.
    "foster_species" VARCHAR(5)[] NOT NULL DEFAULT '{}',
    -- [{ "from": "YYYY-MM-DD", "to": "YYYY-MM-DD" }], both days included.
    "foster_blackouts" JSONB NOT NULL DEFAULT '[]',
    "erased_at" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "people_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "people_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "people_foster_capacity_check" CHECK ("foster_capacity" BETWEEN 1 AND 50),
    CONSTRAINT "people_foster_whole_check" CHECK (("foster_status" IS NULL) = ("foster_capacity" IS NULL)),
    CONSTRAINT "people_foster_blackouts_check" CHECK (jsonb_typeof("foster_blackouts") = 'array')
);

CREATE UNIQUE INDEX "people_organization_id_email_key" ON "people" ("organization_id", lower("email")) WHERE "email" IS NOT NULL;
CREATE INDEX "people_organization_id_id_idx" ON "people" ("organization_id", "id");
CREATE INDEX "people_earth_point_idx" ON "people" USING gist ("earth_point") WHERE "earth_point" IS NOT NULL;

CREATE TABLE "pet_placements" (
    "id" BIGSERIAL NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "organization_id" BIGINT NOT NULL,
    "stay_id" BIGINT NOT NULL,
    -- Null: an unnamed foster (a history import's "FOSTER" outcome names nobody).
    "person_id" BIGINT,
    "start_at" TIMESTAMPTZ(3) NOT NULL,
    "end_at" TIMESTAMPTZ(3),
    "end_reason" "PlacementEndReason",
    "expected_end_on" DATE,
    "note" VARCHAR(500),
    -- Staff placed the animal although the foster had no room left (audited with the change).
    "capacity_overridden" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pet_placements_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "pet_placements_pet_id_fkey" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "pet_placements_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "pet_placements_stay_id_fkey" FOREIGN KEY ("stay_id") REFERENCES "pet_stays"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "pet_placements_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "people"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "pet_placements_end_check" CHECK ("end_at" IS NULL OR "end_at" >= "start_at"),
    CONSTRAINT "pet_placements_end_reason_check" CHECK (("end_at" IS NULL) = ("end_reason" IS NULL)),
    CONSTRAINT "pet_placements_no_overlap" EXCLUDE USING gist ("pet_id" WITH =, tstzrange("start_at", "end_at", '[)') WITH &&)
);

CREATE UNIQUE INDEX "pet_placements_one_open" ON "pet_placements" ("pet_id") WHERE "end_at" IS NULL;
CREATE INDEX "pet_placements_pet_id_start_at_idx" ON "pet_placements" ("pet_id", "start_at");
CREATE INDEX "pet_placements_stay_id_idx" ON "pet_placements" ("stay_id");
-- A foster's animals now (room, their page) and over time.
CREATE INDEX "pet_placements_person_id_open_idx" ON "pet_placements" ("person_id") WHERE "end_at" IS NULL;
CREATE INDEX "pet_placements_person_id_start_at_idx" ON "pet_placements" ("person_id", "start_at");
-- The monthly report's foster counts: the organisation's placements by time.
CREATE INDEX "pet_placements_organization_id_start_at_idx" ON "pet_placements" ("organization_id", "start_at");

-- A placement lies inside one stay of its animal.
CREATE FUNCTION pet_placement_inside_stay() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s RECORD;
BEGIN
  SELECT pet_id, organization_id, intake_at, outcome_at INTO s FROM pet_stays WHERE id = NEW.stay_id;
  IF NOT FOUND THEN
    RETURN NULL; -- the stay was deleted with its placements (ON DELETE CASCADE)
  END IF;
  IF s.pet_id <> NEW.pet_id OR s.organization_id <> NEW.organization_id THEN
    RAISE EXCEPTION 'placement % is not of its stay''s animal', NEW.id USING ERRCODE = '23514', CONSTRAINT = 'pet_placements_inside_stay';
  END IF;
  IF NEW.start_at < s.intake_at
     OR (s.outcome_at IS NOT NULL AND (NEW.end_at IS NULL OR NEW.end_at > s.outcome_at OR NEW.start_at > s.outcome_at)) THEN
    RAISE EXCEPTION 'placement % [%, %) lies outside its stay [%, %]', NEW.id, NEW.start_at, NEW.end_at, s.intake_at, s.outcome_at
      USING ERRCODE = '23514', CONSTRAINT = 'pet_placements_inside_stay';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER pet_placements_inside_stay AFTER INSERT OR UPDATE ON "pet_placements"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pet_placement_inside_stay();

-- The same rule seen from the stay: a stay's new intake or outcome must still hold its placements.
CREATE FUNCTION pet_stay_holds_placements() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p RECORD;
BEGIN
  -- Read the stay as it is at commit, not as this row version was.
  SELECT intake_at, outcome_at INTO p FROM pet_stays WHERE id = NEW.id;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF EXISTS (SELECT 1 FROM pet_placements pl WHERE pl.stay_id = NEW.id
              AND (pl.start_at < p.intake_at
                   OR (p.outcome_at IS NOT NULL AND (pl.end_at IS NULL OR pl.end_at > p.outcome_at OR pl.start_at > p.outcome_at)))) THEN
    RAISE EXCEPTION 'stay % [%, %] no longer holds its placements', NEW.id, p.intake_at, p.outcome_at
      USING ERRCODE = '23514', CONSTRAINT = 'pet_placements_inside_stay';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER pet_stays_hold_placements AFTER UPDATE OF "intake_at", "outcome_at" ON "pet_stays"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pet_stay_holds_placements();
