-- Issue 50: where an animal in a foster home is, for near search and alerts
-- (docs/decisions/028). An animal is at its open placement's foster's point
-- (a US ZIP code's centre) when its organisation shows foster homes
-- (foster_location = 'fosterHome') and the foster has a point; otherwise at
-- its organisation's place. pets.foster_point holds the first case (null in
-- the second), so the place of an animal is COALESCE(p.foster_point,
-- o.earth_point) (placeOf, lib/pets/queries/near.ts) and near search walks the animals
-- away from their shelters through a GiST index of their own.
--
-- The database keeps the column whatever the path, as it keeps placements'
-- rules: a placement opened, ended, moved or deleted, a foster's point
-- changed (an address edited, an erasure) and an organisation's choice
-- changed each bring the animals they touch up to date in the same
-- transaction. It is never written otherwise.

ALTER TABLE "pets" ADD COLUMN "foster_point" "public"."cube";

-- Only the animals away from their shelters: a fifth of them at most, in practice.
CREATE INDEX "pets_foster_point_idx" ON "pets" USING gist ("foster_point") WHERE "foster_point" IS NOT NULL;

-- The point an animal's open placement puts it at, or null.
CREATE FUNCTION pet_foster_point(pet BIGINT) RETURNS "public"."cube" LANGUAGE sql STABLE AS $$
  SELECT pe.earth_point
    FROM pet_placements pl
    JOIN organizations o ON o.id = pl.organization_id AND o.foster_location = 'fosterHome'
    JOIN people pe ON pe.id = pl.person_id
   WHERE pl.pet_id = pet AND pl.end_at IS NULL
$$;

CREATE FUNCTION pets_refresh_foster_point(pets BIGINT[]) RETURNS void LANGUAGE sql AS $$
  UPDATE pets p SET foster_point = pet_foster_point(p.id)
   WHERE p.id = ANY(pets) AND p.foster_point IS DISTINCT FROM pet_foster_point(p.id)
$$;

CREATE FUNCTION pet_placements_refresh_foster_point() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' AND NEW.person_id IS NOT NULL THEN
    -- Read the foster's point as committed, and hold it until this
    -- transaction ends: a concurrent edit of the address then waits, and its
    -- own refresh sees this placement.
    PERFORM 1 FROM people WHERE id = NEW.person_id FOR SHARE;
  END IF;
  PERFORM pets_refresh_foster_point(CASE TG_OP
    WHEN 'INSERT' THEN ARRAY[NEW.pet_id]
    WHEN 'DELETE' THEN ARRAY[OLD.pet_id]
    ELSE ARRAY[OLD.pet_id, NEW.pet_id] END);
  RETURN NULL;
END $$;

-- Only open placements place an animal: a history import's ended ones cost nothing here.
CREATE TRIGGER pet_placements_foster_point_insert AFTER INSERT ON "pet_placements"
  FOR EACH ROW WHEN (NEW.end_at IS NULL) EXECUTE FUNCTION pet_placements_refresh_foster_point();
CREATE TRIGGER pet_placements_foster_point_update AFTER UPDATE OF pet_id, person_id, end_at, organization_id ON "pet_placements"
  FOR EACH ROW WHEN (OLD.end_at IS NULL OR NEW.end_at IS NULL) EXECUTE FUNCTION pet_placements_refresh_foster_point();
CREATE TRIGGER pet_placements_foster_point_delete AFTER DELETE ON "pet_placements"
  FOR EACH ROW WHEN (OLD.end_at IS NULL) EXECUTE FUNCTION pet_placements_refresh_foster_point();

CREATE FUNCTION people_refresh_foster_point() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pets_refresh_foster_point(ARRAY(SELECT pet_id FROM pet_placements WHERE person_id = NEW.id AND end_at IS NULL));
  RETURN NULL;
END $$;

CREATE TRIGGER people_foster_point AFTER UPDATE OF lat, lng ON "people"
  FOR EACH ROW WHEN (OLD.lat IS DISTINCT FROM NEW.lat OR OLD.lng IS DISTINCT FROM NEW.lng)
  EXECUTE FUNCTION people_refresh_foster_point();

CREATE FUNCTION organizations_refresh_foster_point() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pets_refresh_foster_point(ARRAY(SELECT pet_id FROM pet_placements WHERE organization_id = NEW.id AND end_at IS NULL));
  RETURN NULL;
END $$;

CREATE TRIGGER organizations_foster_point AFTER UPDATE OF foster_location ON "organizations"
  FOR EACH ROW WHEN (OLD.foster_location IS DISTINCT FROM NEW.foster_location)
  EXECUTE FUNCTION organizations_refresh_foster_point();
