-- Pages stay flat whatever the data's history. With a skewed history (the
-- oldest animals all sold, the newest available), the planner answered
-- "status = 'sold' ORDER BY id DESC LIMIT 21" by walking the primary key
-- backwards and discarding every newer row, because the (status, id)
-- index's heap access looked costlier than the primary key's. Instead:
--   - one partial index on id per status (the status is a literal in the
--     page statement, so each status's statement has its own plan): a walk
--     of it in id order finds nothing to discard;
--   - covering indexes for the category filters, so their pages are
--     index-only scans, cheaper than any primary-key walk.
-- tests/api/pets-plans.test.ts pins these plans on a skewed table.
-- Prisma's schema language has neither WHERE nor INCLUDE, and its migration
-- diff ignores partial indexes: the covering ones carry a predicate every
-- page query with a category implies (category_id IS NOT NULL), so Prisma
-- leaves all of them alone (prisma/schema.prisma says so).
CREATE INDEX "pets_available_id_idx" ON "pets"("id") WHERE "status" = 'available';
CREATE INDEX "pets_pending_id_idx" ON "pets"("id") WHERE "status" = 'pending';
CREATE INDEX "pets_sold_id_idx" ON "pets"("id") WHERE "status" = 'sold';
DROP INDEX "pets_status_id_idx";

DROP INDEX "pets_category_id_id_idx";
CREATE INDEX "pets_category_id_id_idx" ON "pets"("category_id", "id") INCLUDE ("name", "status", "version") WHERE "category_id" IS NOT NULL;

DROP INDEX "pets_status_category_id_id_idx";
CREATE INDEX "pets_status_category_id_id_idx" ON "pets"("status", "category_id", "id") INCLUDE ("name", "version") WHERE "category_id" IS NOT NULL;
