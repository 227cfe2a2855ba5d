-- The Basic Data Matrix's 2021 revision (issue 50): an intake category for
-- seized or impounded animals, and transfers in and out by distance (in
-- state, out of state, international). Added as a detail of today's types,
-- not as new enum values, so a client that knows today's values never meets
-- an unknown one: a seized animal's type stays otherIntake, a transfer stays
-- transferredIn / transferredOut (docs/decisions/028, "The matrix's 2021
-- revision"). The database ties each detail to its type.

ALTER TABLE "pet_stays"
  ADD COLUMN "intake_detail" VARCHAR(20),
  ADD COLUMN "outcome_detail" VARCHAR(20),
  ADD CONSTRAINT "pet_stays_intake_detail_check" CHECK (
    "intake_detail" IS NULL
    OR ("intake_detail" = 'seizedOrImpounded' AND "intake_type" = 'otherIntake')
    OR ("intake_detail" IN ('inState', 'outOfState', 'international') AND "intake_type" = 'transferredIn')),
  ADD CONSTRAINT "pet_stays_outcome_detail_check" CHECK (
    "outcome_detail" IS NULL
    OR ("outcome_detail" IN ('inState', 'outOfState', 'international') AND "outcome_type" = 'transferredOut'));

-- The report's detail rows: few stays have a detail, so partial indexes
-- (index-only, as the flows' own) serve them, and the report's existing
-- covering indexes stay as they are (no rebuild of every stay's entries).
CREATE INDEX "pet_stays_organization_id_intake_detail_idx" ON "pet_stays" ("organization_id", "intake_on") INCLUDE ("species", "intake_detail", "intake_type", "intake_age") WHERE "intake_detail" IS NOT NULL;
CREATE INDEX "pet_stays_organization_id_outcome_detail_idx" ON "pet_stays" ("organization_id", "outcome_on") INCLUDE ("species", "outcome_detail", "outcome_type", "outcome_age") WHERE "outcome_detail" IS NOT NULL;
CREATE INDEX "pet_stays_intake_detail_idx" ON "pet_stays" ("intake_on") INCLUDE ("species", "intake_detail", "intake_type", "intake_age") WHERE "intake_detail" IS NOT NULL;
CREATE INDEX "pet_stays_outcome_detail_idx" ON "pet_stays" ("outcome_on") INCLUDE ("species", "outcome_detail", "outcome_type", "outcome_age") WHERE "outcome_detail" IS NOT NULL;
