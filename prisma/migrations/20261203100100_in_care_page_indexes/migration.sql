-- Issue 42 (docs/decisions/023): an animal out of care (its last stay ended
-- other than by adoption) is on no list adopters and partners see. Every
-- list statement now says `in_care` (lib/pets/queries.ts plainConditions),
-- and the indexes the list pages walk hold only the animals in care, so a
-- page is still an index-only walk that discards nothing, however many
-- animals have left (tests/api/pets-plans.test.ts pins it, with out-of-care
-- animals in its data). The names stay, so plans and tests read the same.
--
-- The organisation indexes too: near search and the shelter pages walk one
-- organisation's animals newest first, and the animals that left (most of a
-- shelter's old ones that were not adopted, each still `available`) would
-- be walked past; every other reader of them (the dashboard's counts, the
-- listing sites' files, an import's absent animals) also wants animals in
-- care only. Not changed: the unique external-id index (a handful of rows,
-- read whole), the name search's trigram index (its matches are read from
-- the table and rechecked).

-- The unfiltered page: walked by id, in care only (it walked the primary key).
CREATE INDEX "pets_in_care_id_idx" ON "pets" ("id") WHERE "in_care";

DROP INDEX "pets_available_id_idx";
CREATE INDEX "pets_available_id_idx" ON "pets" ("id") WHERE "status" = 'available' AND "in_care";
DROP INDEX "pets_pending_id_idx";
CREATE INDEX "pets_pending_id_idx" ON "pets" ("id") WHERE "status" = 'pending' AND "in_care";
DROP INDEX "pets_sold_id_idx";
CREATE INDEX "pets_sold_id_idx" ON "pets" ("id") WHERE "status" = 'sold' AND "in_care";

DROP INDEX "pets_category_id_id_idx";
CREATE INDEX "pets_category_id_id_idx" ON "pets" ("category_id", "id") WHERE "category_id" IS NOT NULL AND "in_care";
DROP INDEX "pets_status_category_id_id_idx";
CREATE INDEX "pets_status_category_id_id_idx" ON "pets" ("status", "category_id", "id") WHERE "category_id" IS NOT NULL AND "in_care";

DROP INDEX "pets_birth_date_cover_idx";
CREATE INDEX "pets_birth_date_cover_idx" ON "pets" ("birth_date") INCLUDE ("age_group", "status", "category_id", "id") WHERE "birth_date" IS NOT NULL AND "in_care";

DROP INDEX "pets_sex_id_idx";
CREATE INDEX "pets_sex_id_idx" ON "pets" ("sex", "id") WHERE "in_care";
DROP INDEX "pets_size_id_idx";
CREATE INDEX "pets_size_id_idx" ON "pets" ("size", "id") WHERE "size" IS NOT NULL AND "in_care";
DROP INDEX "pets_coat_length_id_idx";
CREATE INDEX "pets_coat_length_id_idx" ON "pets" ("coat_length", "id") WHERE "coat_length" IS NOT NULL AND "in_care";
DROP INDEX "pets_good_with_mask_id_idx";
CREATE INDEX "pets_good_with_mask_id_idx" ON "pets" ("good_with_mask", "id") WHERE "good_with_mask" > 0 AND "in_care";

DROP INDEX "pets_house_trained_id_idx";
CREATE INDEX "pets_house_trained_id_idx" ON "pets" ("id") WHERE "house_trained" AND "in_care";
DROP INDEX "pets_not_house_trained_id_idx";
CREATE INDEX "pets_not_house_trained_id_idx" ON "pets" ("id") WHERE NOT "house_trained" AND "in_care";
DROP INDEX "pets_special_needs_id_idx";
CREATE INDEX "pets_special_needs_id_idx" ON "pets" ("id") WHERE "special_needs" AND "in_care";
DROP INDEX "pets_no_special_needs_id_idx";
CREATE INDEX "pets_no_special_needs_id_idx" ON "pets" ("id") WHERE NOT "special_needs" AND "in_care";
DROP INDEX "pets_spayed_neutered_id_idx";
CREATE INDEX "pets_spayed_neutered_id_idx" ON "pets" ("id") WHERE "spayed_neutered" AND "in_care";
DROP INDEX "pets_not_spayed_neutered_id_idx";
CREATE INDEX "pets_not_spayed_neutered_id_idx" ON "pets" ("id") WHERE NOT "spayed_neutered" AND "in_care";

DROP INDEX "pets_organization_id_id_idx";
CREATE INDEX "pets_organization_id_id_idx" ON "pets" ("organization_id", "id") WHERE "in_care";
DROP INDEX "pets_organization_id_status_id_idx";
CREATE INDEX "pets_organization_id_status_id_idx" ON "pets" ("organization_id", "status", "id") WHERE "in_care";
