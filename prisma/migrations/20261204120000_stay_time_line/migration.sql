-- Issue 48: an animal's stays form one time line, so its latest stay is
-- always the one that speaks for it (docs/decisions/023, "One time line").
--
-- pet_stays_no_overlap compared half-open ranges, [intake_at, outcome_at).
-- A stay of no length (in and out at one instant: a day given as both dates)
-- is the empty range there, which overlaps nothing: it could sit inside
-- another stay, or after the open one, and then "the latest stay" (by intake)
-- was a stay the animal never left from last, or the open stay was not the
-- latest and a sale left it open.
--
-- Now a stay of no length is its instant, [t, t], and a stay that lasts is
-- its open interval (intake_at, outcome_at): two lasting stays still meet
-- exactly when their half-open ranges did (a re-intake at the instant of the
-- last outcome is no overlap), a stay of no length may stand at the edge of
-- another (the day it came in, or the day it left) but not inside it, and
-- two of no length not at one instant. No two stays of an animal then share
-- an intake and a length, and ordering by (intake_at, lasts, id) is the time
-- line (lib/stays/queries.ts StayPosition). An open stay, (intake_at, ∞),
-- leaves nothing after it: it is always the latest.
--
-- Data that breaks the new rule makes this migration stop with PostgreSQL's
-- own message, naming both stays' keys: correct one of them, then migrate.

CREATE FUNCTION pet_stay_span(intake_at timestamptz, outcome_at timestamptz) RETURNS tstzrange
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN outcome_at = intake_at THEN tstzrange(intake_at, outcome_at, '[]') ELSE tstzrange(intake_at, outcome_at, '()') END
$$;

ALTER TABLE "pet_stays"
  DROP CONSTRAINT "pet_stays_no_overlap",
  ADD CONSTRAINT "pet_stays_no_overlap" EXCLUDE USING gist ("pet_id" WITH =, pet_stay_span("intake_at", "outcome_at") WITH &&);
