-- A shelter's records (issue 42, docs/decisions/023): each animal's stays,
-- from intake to outcome, in the national Basic Data Matrix's categories.
--
-- Invariants the database keeps, whichever path writes (API, staff pages,
-- imports, the adoption workflow):
--   - an animal's stays never overlap (the exclusion constraint; a stay
--     covers [intake_at, outcome_at), so a re-intake on the day of the last
--     outcome is fine) and at most one is open (the partial unique index);
--   - an outcome is never before its intake, and has a type exactly when it
--     has a time;
--   - intake_on / outcome_on are the days the times fall on in the
--     organisation's time zone (pet_stays_local_days): the monthly report
--     counts days, and a date given without a time (imports) is stored as
--     midnight of that day there, so it is never shifted.
-- What follows from a stay for the animal (its status, whether it is in
-- care) is written by lib/stays in the same transaction as the stay.

CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TYPE "IntakeType" AS ENUM ('stray', 'relinquishedByOwner', 'ownerIntendedEuthanasia', 'transferredIn', 'otherIntake');
CREATE TYPE "OutcomeType" AS ENUM ('adoption', 'returnedToOwner', 'transferredOut', 'returnedToField', 'otherLiveOutcome', 'diedInCare', 'lostInCare', 'shelterEuthanasia', 'ownerIntendedEuthanasia');

-- An IANA name; the report's months are calendar months there. UTC until the
-- shelter says otherwise.
ALTER TABLE "organizations" ADD COLUMN "time_zone" VARCHAR(64) NOT NULL DEFAULT 'UTC';

-- False once the animal's last stay ended with an outcome other than
-- adoption: off every list adopters and partners see, kept for staff.
ALTER TABLE "pets" ADD COLUMN "in_care" BOOLEAN NOT NULL DEFAULT true;

CREATE TABLE "pet_stays" (
    "id" BIGSERIAL NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "organization_id" BIGINT NOT NULL,
    "intake_at" TIMESTAMPTZ(3) NOT NULL,
    "intake_on" DATE NOT NULL DEFAULT CURRENT_DATE, -- overwritten by the trigger
    "intake_type" "IntakeType" NOT NULL,
    "intake_subtype" VARCHAR(100),
    "outcome_at" TIMESTAMPTZ(3),
    "outcome_on" DATE,
    "outcome_type" "OutcomeType",
    "outcome_subtype" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pet_stays_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "pet_stays_outcome_whole" CHECK (("outcome_at" IS NULL) = ("outcome_type" IS NULL) AND ("outcome_subtype" IS NULL OR "outcome_at" IS NOT NULL)),
    CONSTRAINT "pet_stays_outcome_after_intake" CHECK ("outcome_at" IS NULL OR "outcome_at" >= "intake_at"),
    CONSTRAINT "pet_stays_no_overlap" EXCLUDE USING gist ("pet_id" WITH =, tstzrange("intake_at", "outcome_at", '[)') WITH &&)
);

ALTER TABLE "pet_stays" ADD CONSTRAINT "pet_stays_pet_id_fkey" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "pet_stays" ADD CONSTRAINT "pet_stays_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE UNIQUE INDEX "pet_stays_one_open_key" ON "pet_stays"("pet_id") WHERE "outcome_at" IS NULL;
CREATE INDEX "pet_stays_pet_id_intake_at_idx" ON "pet_stays"("pet_id", "intake_at");
-- The monthly report reads an organisation's intakes and outcomes by day.
CREATE INDEX "pet_stays_organization_id_intake_on_idx" ON "pet_stays"("organization_id", "intake_on");
CREATE INDEX "pet_stays_organization_id_outcome_on_idx" ON "pet_stays"("organization_id", "outcome_on") WHERE "outcome_on" IS NOT NULL;

-- The local days, from the organisation's time zone at the time of writing.
CREATE FUNCTION pet_stays_local_days() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  SELECT time_zone INTO zone FROM organizations WHERE id = NEW.organization_id;
  NEW.intake_on := (NEW.intake_at AT TIME ZONE zone)::date;
  NEW.outcome_on := (NEW.outcome_at AT TIME ZONE zone)::date;
  RETURN NEW;
END $$;

CREATE TRIGGER pet_stays_local_days BEFORE INSERT OR UPDATE OF intake_at, outcome_at, organization_id ON "pet_stays"
  FOR EACH ROW EXECUTE FUNCTION pet_stays_local_days();

-- Existing animals get one stay each: from their intake date (midnight of
-- that day in the organisation's time zone, UTC today) or else their
-- creation; a sold animal's stay ends with an adoption when it was last
-- changed to sold (the first audit record of its last run as sold),
-- else when it was created or taken in, whichever is later.
INSERT INTO "pet_stays" ("pet_id", "organization_id", "intake_at", "intake_on", "intake_type", "outcome_at", "outcome_on", "outcome_type")
SELECT p.id, p.organization_id, s.intake_at, s.intake_at::date, 'otherIntake',
       CASE WHEN p.status = 'sold' THEN GREATEST(s.intake_at, COALESCE(sold.at, p.created_at)) END,
       NULL,
       CASE WHEN p.status = 'sold' THEN 'adoption'::"OutcomeType" END
FROM "pets" p
CROSS JOIN LATERAL (
  SELECT CASE WHEN p.intake_date IS NOT NULL AND p.intake_date <= p.created_at::date
              THEN p.intake_date::timestamp AT TIME ZONE 'UTC'
              ELSE p.created_at END AS intake_at
) s
LEFT JOIN LATERAL (
  SELECT min(a.created_at) AS at FROM "pet_audit" a
  WHERE a.pet_id = p.id AND a.after->>'status' = 'sold'
    AND a.id > COALESCE((SELECT max(b.id) FROM "pet_audit" b WHERE b.pet_id = p.id AND b.after->>'status' <> 'sold'), 0)
) sold ON true;
