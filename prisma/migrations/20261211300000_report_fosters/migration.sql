-- Issue 50: the monthly report counts the animals in a foster home when a
-- month begins and ends (beginningFosterCount, endingFosterCount), by the
-- rule of the beginning and ending counts they are part of (decision 025):
-- days in the organisation's time zone, an animal counted on a day when the
-- day lies in (first day, last day]. A placement's days are stored as its
-- stay's are (pet_stays_local_days, migration 20261203000000): the
-- organisation's zone at the time of writing, so a later change of zone moves
-- neither.

ALTER TABLE "pet_placements"
  ADD COLUMN "start_on" DATE NOT NULL DEFAULT CURRENT_DATE, -- overwritten by the trigger
  ADD COLUMN "end_on" DATE;

CREATE FUNCTION pet_placements_local_days() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  SELECT time_zone INTO zone FROM organizations WHERE id = NEW.organization_id;
  NEW.start_on := (NEW.start_at AT TIME ZONE zone)::date;
  NEW.end_on := (NEW.end_at AT TIME ZONE zone)::date;
  RETURN NEW;
END $$;

CREATE TRIGGER pet_placements_local_days BEFORE INSERT OR UPDATE OF start_at, end_at, organization_id ON "pet_placements"
  FOR EACH ROW EXECUTE FUNCTION pet_placements_local_days();

UPDATE "pet_placements" pl
   SET "start_on" = (pl.start_at AT TIME ZONE o.time_zone)::date, "end_on" = (pl.end_at AT TIME ZONE o.time_zone)::date
  FROM "organizations" o WHERE o.id = pl.organization_id;

-- The placements under way on a day: one probe per month, as the stays' GiSTs
-- of migration 20261203300000 (led by the organisation for a shelter, the
-- range alone for the network). The stay's id is included: the count joins
-- each placement to its stay (its species, and the stay's own range, so an
-- animal is counted in a foster home only when it is counted in care).
CREATE INDEX "pet_placements_on_idx" ON "pet_placements" USING gist ("organization_id", daterange("start_on", "end_on", '(]')) INCLUDE ("stay_id", "start_on", "end_on");
CREATE INDEX "pet_placements_network_on_idx" ON "pet_placements" USING gist (daterange("start_on", "end_on", '(]')) INCLUDE ("stay_id", "start_on", "end_on");
