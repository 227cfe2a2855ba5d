-- The profile in the listing sites' words (issue 34): what Petfinder,
-- Adopt-a-Pet and RescueGroups share about an animal, so a shelter's
-- software can move its animals here and this service can list them there.
-- Every new column is optional or has a default: rows, clients and events
-- from before keep working, and NULL means "not known", never "no".
-- Constant defaults and nullable columns are added without rewriting the table.

CREATE TYPE "PetCoatLength" AS ENUM ('hairless', 'short', 'medium', 'long', 'wire', 'curly');

ALTER TABLE "pets"
  -- The shelter's own id for the animal (its software's), unique within the organisation (below).
  ADD COLUMN "external_id" VARCHAR(64),
  ADD COLUMN "secondary_breed" VARCHAR(100),
  ADD COLUMN "mixed_breed" BOOLEAN,
  -- Up to 3 colours, the main one first; empty when not known.
  ADD COLUMN "colors" TEXT[] NOT NULL DEFAULT '{}',
  ADD COLUMN "coat_length" "PetCoatLength",
  ADD COLUMN "spayed_neutered" BOOLEAN,
  ADD COLUMN "house_trained" BOOLEAN,
  ADD COLUMN "declawed" BOOLEAN,
  ADD COLUMN "shots_current" BOOLEAN,
  ADD COLUMN "special_needs" BOOLEAN,
  ADD COLUMN "special_needs_notes" VARCHAR(500),
  -- The fee in the currency's minor unit (cents), its ISO 4217 code, and
  -- whether it is waived: all three, or none (not known).
  ADD COLUMN "adoption_fee_cents" INTEGER CHECK ("adoption_fee_cents" >= 0),
  ADD COLUMN "adoption_fee_currency" CHAR(3) CHECK ("adoption_fee_currency" ~ '^[A-Z]{3}$'),
  ADD COLUMN "adoption_fee_waived" BOOLEAN,
  ADD COLUMN "intake_date" DATE,
  ADD COLUMN "video_url" VARCHAR(2048),
  ADD COLUMN "tags" TEXT[] NOT NULL DEFAULT '{}',
  -- Sent to the listing sites the organisation uploads to (issue 35).
  ADD COLUMN "list_on_other_sites" BOOLEAN NOT NULL DEFAULT true,
  ADD CONSTRAINT "pets_adoption_fee_whole" CHECK (
    ("adoption_fee_cents" IS NULL) = ("adoption_fee_currency" IS NULL) AND ("adoption_fee_cents" IS NULL) = ("adoption_fee_waived" IS NULL));

-- One animal per externalId in an organisation, held by the database (two
-- concurrent creates cannot both pass a check made beforehand). The id
-- leads, so `?externalId=A123` (across organisations) walks it too. Animals
-- without one are not in it (they never collide, and most animals added
-- by hand have none: inserts stay as cheap as before).
CREATE UNIQUE INDEX "pets_external_id_organization_id_key" ON "pets" ("external_id", "organization_id") WHERE "external_id" IS NOT NULL;

-- The new filters walk an index in id order, so a page costs the same at
-- any depth, as the other filters' do. The yes/no answers have one partial
-- index on id per answer, as the statuses have (migration
-- 20261122230000): with a (house_trained, id) index instead, the planner
-- walked the primary key backwards and discarded every newer row where the
-- newest animals' answers were not known yet (15,000 of 30,000 rows for
-- spayedNeutered=false), and could not use it for "= false" at all. Unknown
-- answers match no filter, so they are in none of them.
-- tests/api/pets-plans.test.ts pins these plans; `npm run bench -- --scale`
-- measures them at a million animals.
CREATE INDEX "pets_house_trained_id_idx" ON "pets" ("id") WHERE "house_trained";
CREATE INDEX "pets_not_house_trained_id_idx" ON "pets" ("id") WHERE NOT "house_trained";
CREATE INDEX "pets_special_needs_id_idx" ON "pets" ("id") WHERE "special_needs";
CREATE INDEX "pets_no_special_needs_id_idx" ON "pets" ("id") WHERE NOT "special_needs";
CREATE INDEX "pets_spayed_neutered_id_idx" ON "pets" ("id") WHERE "spayed_neutered";
CREATE INDEX "pets_not_spayed_neutered_id_idx" ON "pets" ("id") WHERE NOT "spayed_neutered";
CREATE INDEX "pets_coat_length_id_idx" ON "pets" ("coat_length", "id") WHERE "coat_length" IS NOT NULL;
