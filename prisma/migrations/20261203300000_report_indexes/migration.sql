-- The monthly report (issue 42, docs/decisions/025): what each stay counts
-- as, kept on the stay, and covering indexes; no rollup table.
--
-- A report groups stays by species (the animal's category: Dogs, Cats,
-- other) and age on the day (juvenile before five calendar months from the
-- birth date). Joining every stay to its animal cost most of the time
-- (profiled: 2.5 s of a 5.6 s network month was reading pets), so each stay
-- carries its species and its ages at intake and at outcome, set by a
-- trigger when the stay is written and rewritten when the animal's category
-- or birth date changes (a few stays per animal), or a category is renamed.

-- Age on a day, as the matrix counts it.
CREATE FUNCTION report_age(born date, day date) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN born IS NULL THEN 'unknownAge' WHEN day < (born + interval '5 months')::date THEN 'juvenile' ELSE 'adult' END
$$;

CREATE FUNCTION report_species(category text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE category WHEN 'Dogs' THEN 'dog' WHEN 'Cats' THEN 'cat' ELSE 'other' END
$$;

ALTER TABLE "pet_stays"
  ADD COLUMN "species" VARCHAR(5) NOT NULL DEFAULT 'other',       -- overwritten by the trigger
  ADD COLUMN "intake_age" VARCHAR(10) NOT NULL DEFAULT 'unknownAge', -- overwritten by the trigger
  ADD COLUMN "outcome_age" VARCHAR(10),
  ADD CONSTRAINT "pet_stays_species_known" CHECK ("species" IN ('dog', 'cat', 'other')),
  ADD CONSTRAINT "pet_stays_ages_known" CHECK ("intake_age" IN ('adult', 'juvenile', 'unknownAge') AND ("outcome_age" IS NULL OR "outcome_age" IN ('adult', 'juvenile', 'unknownAge')));

UPDATE "pet_stays" s
   SET "species" = report_species(c.name), "intake_age" = report_age(p.birth_date, s.intake_on),
       "outcome_age" = CASE WHEN s.outcome_on IS NOT NULL THEN report_age(p.birth_date, s.outcome_on) END
  FROM "pets" p LEFT JOIN "categories" c ON c.id = p.category_id
 WHERE p.id = s.pet_id;

-- After pet_stays_local_days (triggers run in name order): the days are set.
CREATE FUNCTION pet_stays_report_keys() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  born date;
  category text;
BEGIN
  SELECT p.birth_date, c.name INTO born, category FROM pets p LEFT JOIN categories c ON c.id = p.category_id WHERE p.id = NEW.pet_id;
  NEW.species := report_species(category);
  NEW.intake_age := report_age(born, NEW.intake_on);
  NEW.outcome_age := CASE WHEN NEW.outcome_on IS NOT NULL THEN report_age(born, NEW.outcome_on) END;
  RETURN NEW;
END $$;

CREATE TRIGGER pet_stays_report_keys BEFORE INSERT OR UPDATE OF intake_at, outcome_at, organization_id, pet_id ON "pet_stays"
  FOR EACH ROW EXECUTE FUNCTION pet_stays_report_keys();

-- An animal's category or birth date changed: its stays count anew. Only
-- then (WHEN), so an ordinary change of an animal costs nothing more.
CREATE FUNCTION pets_report_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE pet_stays s
     SET species = report_species((SELECT name FROM categories WHERE id = NEW.category_id)),
         intake_age = report_age(NEW.birth_date, s.intake_on),
         outcome_age = CASE WHEN s.outcome_on IS NOT NULL THEN report_age(NEW.birth_date, s.outcome_on) END
   WHERE s.pet_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER pets_report_keys AFTER UPDATE OF category_id, birth_date ON "pets"
  FOR EACH ROW WHEN (OLD.category_id IS DISTINCT FROM NEW.category_id OR OLD.birth_date IS DISTINCT FROM NEW.birth_date)
  EXECUTE FUNCTION pets_report_keys();

CREATE FUNCTION categories_report_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE pet_stays s SET species = report_species(NEW.name) FROM pets p WHERE p.id = s.pet_id AND p.category_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER categories_report_keys AFTER UPDATE OF name ON "categories"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION categories_report_keys();

-- A month's intakes and outcomes are counted from the day indexes alone
-- (index-only scans: what a row is counted by is in the index): an
-- organisation's from 20261203000000's indexes, rebuilt here to carry it
-- (same names and keys), the whole network's (platform admins) from two more.
DROP INDEX "pet_stays_organization_id_intake_on_idx";
CREATE INDEX "pet_stays_organization_id_intake_on_idx" ON "pet_stays"("organization_id", "intake_on") INCLUDE ("species", "intake_type", "intake_age");
DROP INDEX "pet_stays_organization_id_outcome_on_idx";
CREATE INDEX "pet_stays_organization_id_outcome_on_idx" ON "pet_stays"("organization_id", "outcome_on") INCLUDE ("species", "outcome_type", "outcome_age", "intake_on") WHERE "outcome_on" IS NOT NULL;
CREATE INDEX "pet_stays_intake_on_idx" ON "pet_stays"("intake_on") INCLUDE ("species", "intake_type", "intake_age");
CREATE INDEX "pet_stays_outcome_on_idx" ON "pet_stays"("outcome_on") INCLUDE ("species", "outcome_type", "outcome_age", "intake_on") WHERE "outcome_on" IS NOT NULL;

-- A month's beginning count is the stays that began before its first day and
-- had not ended when it began: intake_on < day <= outcome_on (or no outcome),
-- i.e. the day lies in the range (intake_on, outcome_on]. GiST indexes on
-- that range find the stays open on a day without reading every stay that
-- began before it: one led by the organisation (btree_gist) for a shelter,
-- one on the range alone for the network (a probe of the first on its second
-- column alone read the whole index: 2.3 s). The range's own columns are
-- included too: without them PostgreSQL will not answer from the index alone.
CREATE INDEX "pet_stays_open_on_idx" ON "pet_stays" USING gist ("organization_id", daterange("intake_on", "outcome_on", '(]')) INCLUDE ("species", "intake_on", "outcome_on");
CREATE INDEX "pet_stays_network_open_on_idx" ON "pet_stays" USING gist (daterange("intake_on", "outcome_on", '(]')) INCLUDE ("species", "intake_on", "outcome_on");
