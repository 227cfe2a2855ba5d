-- An animal someone can get to know: a profile (sex, size, birth date, breed,
-- description, who it gets on with) and photos. Every new column is optional
-- or has a default, so rows, clients and events from before keep working.

CREATE TYPE "PetSex" AS ENUM ('female', 'male', 'unknown');
CREATE TYPE "PetSize" AS ENUM ('small', 'medium', 'large', 'xlarge');
CREATE TYPE "PetAgeGroup" AS ENUM ('baby', 'young', 'adult', 'senior');

ALTER TABLE "pets"
  ADD COLUMN "sex" "PetSex" NOT NULL DEFAULT 'unknown',
  ADD COLUMN "size" "PetSize",
  ADD COLUMN "birth_date" DATE,
  ADD COLUMN "breed" VARCHAR(100),
  ADD COLUMN "description" VARCHAR(5000),
  ADD COLUMN "good_with_children" BOOLEAN,
  ADD COLUMN "good_with_dogs" BOOLEAN,
  ADD COLUMN "good_with_cats" BOOLEAN,
  -- The goodWith answers that are "yes", as bits (1 children, 2 dogs, 4
  -- cats): `goodWith=children,cats` is then "mask is 5 or 7", each value an
  -- index range in id order (lib/pets/queries.ts).
  ADD COLUMN "good_with_mask" SMALLINT GENERATED ALWAYS AS (
    (CASE WHEN "good_with_children" THEN 1 ELSE 0 END) |
    (CASE WHEN "good_with_dogs" THEN 2 ELSE 0 END) |
    (CASE WHEN "good_with_cats" THEN 4 ELSE 0 END)) STORED,
  -- The age group as of the day it was last computed. The API's ageGroup is
  -- computed at read time from birth_date; this copy only lets the age
  -- filter walk an index in id order. It is set on every write and moved on
  -- daily (refresh_pet_age_groups), and the list re-checks the birth date
  -- exactly, looking separately at the few animals whose birthday crossed a
  -- boundary since the last refresh (lib/pets/queries.ts, decision 010).
  ADD COLUMN "age_group" "PetAgeGroup";

-- The one definition of the groups in SQL (lib/pets/age.ts is the same in
-- TypeScript, and tests hold them equal): under 1 year baby, under 3 young,
-- under 8 adult, else senior. "date - interval 'N years'" moves 29 February
-- to the 28th, so a leap-day birthday counts from 1 March in other years.
CREATE FUNCTION "pet_age_group"(birth DATE, on_day DATE) RETURNS "PetAgeGroup"
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN birth IS NULL THEN NULL
    WHEN birth > (on_day - interval '1 year')::date THEN 'baby'::"PetAgeGroup"
    WHEN birth > (on_day - interval '3 years')::date THEN 'young'::"PetAgeGroup"
    WHEN birth > (on_day - interval '8 years')::date THEN 'adult'::"PetAgeGroup"
    ELSE 'senior'::"PetAgeGroup"
  END
$$;

CREATE FUNCTION "pets_set_age_group"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW."age_group" := "pet_age_group"(NEW."birth_date", (now() AT TIME ZONE 'UTC')::date);
  RETURN NEW;
END;
$$;

CREATE TRIGGER "pets_set_age_group"
BEFORE INSERT OR UPDATE OF "birth_date" ON "pets"
FOR EACH ROW EXECUTE FUNCTION "pets_set_age_group"();

-- The day age_group was last brought up to date for every animal.
CREATE TABLE "age_group_refresh" (
  "id" BOOLEAN NOT NULL DEFAULT true PRIMARY KEY CHECK ("id"),
  "refreshed_on" DATE NOT NULL
);
INSERT INTO "age_group_refresh" ("refreshed_on") VALUES ((now() AT TIME ZONE 'UTC')::date);

-- Moves age_group on to `on_day` for the animals whose birthday crossed a
-- group boundary since the last refresh (a few days' worth of birth dates
-- at each boundary, found through the birth_date index), and records the day.
CREATE FUNCTION "refresh_pet_age_groups"(on_day DATE) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  since DATE;
  changed integer;
BEGIN
  SELECT "refreshed_on" INTO since FROM "age_group_refresh" FOR UPDATE;
  IF since IS NULL THEN
    -- Never recorded: every animal, once.
    UPDATE "pets" SET "age_group" = "pet_age_group"("birth_date", on_day)
     WHERE "age_group" IS DISTINCT FROM "pet_age_group"("birth_date", on_day);
    GET DIAGNOSTICS changed = ROW_COUNT;
    INSERT INTO "age_group_refresh" ("refreshed_on") VALUES (on_day) ON CONFLICT ("id") DO UPDATE SET "refreshed_on" = EXCLUDED."refreshed_on";
    RETURN changed;
  END IF;
  -- Both directions (a clock set back moves groups back), a day's margin each side.
  UPDATE "pets" SET "age_group" = "pet_age_group"("birth_date", on_day)
   WHERE ("birth_date" BETWEEN (LEAST(since, on_day) - interval '1 year')::date - 1 AND (GREATEST(since, on_day) - interval '1 year')::date + 1
       OR "birth_date" BETWEEN (LEAST(since, on_day) - interval '3 years')::date - 1 AND (GREATEST(since, on_day) - interval '3 years')::date + 1
       OR "birth_date" BETWEEN (LEAST(since, on_day) - interval '8 years')::date - 1 AND (GREATEST(since, on_day) - interval '8 years')::date + 1)
     AND "age_group" IS DISTINCT FROM "pet_age_group"("birth_date", on_day);
  GET DIAGNOSTICS changed = ROW_COUNT;
  UPDATE "age_group_refresh" SET "refreshed_on" = on_day;
  RETURN changed;
END;
$$;

-- Pages of each new filter walk an index in id order, so a page costs the
-- same at any depth (tests/api/pets-plans.test.ts pins these plans).
CREATE INDEX "pets_sex_id_idx" ON "pets"("sex", "id");
CREATE INDEX "pets_size_id_idx" ON "pets"("size", "id") WHERE "size" IS NOT NULL;
CREATE INDEX "pets_age_group_id_idx" ON "pets"("age_group", "id") WHERE "age_group" IS NOT NULL;
CREATE INDEX "pets_status_age_group_id_idx" ON "pets"("status", "age_group", "id") WHERE "age_group" IS NOT NULL;
CREATE INDEX "pets_good_with_mask_id_idx" ON "pets"("good_with_mask", "id") WHERE "good_with_mask" > 0;
CREATE INDEX "pets_birth_date_idx" ON "pets"("birth_date") WHERE "birth_date" IS NOT NULL;

-- Photos: an animal's, in order (position 0 is the cover). `files` maps
-- each variant's width to its file's key; `file_keys` lists the same keys,
-- so "is this file still used by any photo" is an index lookup when one is
-- deleted (files are content-addressed and may be shared).
CREATE TABLE "pet_photos" (
  "id" BIGSERIAL PRIMARY KEY,
  "pet_id" BIGINT NOT NULL REFERENCES "pets"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "position" INTEGER NOT NULL,
  "alt" VARCHAR(300),
  "width" INTEGER NOT NULL,
  "height" INTEGER NOT NULL,
  "placeholder" VARCHAR(2000) NOT NULL,
  "files" JSONB NOT NULL,
  "file_keys" TEXT[] NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "pet_photos_pet_id_position_idx" ON "pet_photos"("pet_id", "position");
CREATE INDEX "pet_photos_file_keys_idx" ON "pet_photos" USING GIN ("file_keys");

-- The PostgreSQL photo store (PHOTO_STORE=postgres, the default): one row
-- per file, named by its content hash. Stored without compression: WebP is
-- already compressed.
CREATE TABLE "photo_files" (
  "key" VARCHAR(200) PRIMARY KEY,
  "content_type" VARCHAR(100) NOT NULL,
  "bytes" BYTEA NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
ALTER TABLE "photo_files" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
