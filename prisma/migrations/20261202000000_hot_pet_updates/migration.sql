-- Changes to an animal that touch no indexed column become HOT updates
-- (heap-only tuples: the new row version on the same page, no index entry
-- written), issue 40 and docs/decisions/022:
--   - `version`, which every change bumps, and `name` leave the two covering
--     indexes of the category filters. They were included when a page was
--     read from the index alone (a pet was a name and a status); the page's
--     ids are still read from these indexes alone (lib/pets/queries.ts
--     pageSql), and its rows from the table by id, so the keys are all a page
--     needs. With `version` in them, no update of an animal was ever HOT: each
--     wrote a new entry in every index of the table.
--   - the (age_group, id) and (status, age_group, id) indexes go: no page or
--     near statement's plan (custom or generic, every filter, first and deep
--     pages, 30,000 and 300,000 animals) uses them since the covering
--     birth-date index (20261125140000) serves the age filter. Every write
--     that is not HOT paid for them.
--   - a fillfactor of 90 leaves a tenth of each new page free, so the first
--     change of an animal finds room on its own page (existing pages fill
--     as they are; docs/deploy.md says how to rewrite them).
-- tests/api/pets-plans.test.ts pins the pages' plans; tests/api/pets-hot-updates.test.ts the HOT updates.
DROP INDEX "pets_category_id_id_idx";
CREATE INDEX "pets_category_id_id_idx" ON "pets"("category_id", "id") WHERE "category_id" IS NOT NULL;

DROP INDEX "pets_status_category_id_id_idx";
CREATE INDEX "pets_status_category_id_id_idx" ON "pets"("status", "category_id", "id") WHERE "category_id" IS NOT NULL;

DROP INDEX "pets_age_group_id_idx";
DROP INDEX "pets_status_age_group_id_idx";

ALTER TABLE "pets" SET (fillfactor = 90);
