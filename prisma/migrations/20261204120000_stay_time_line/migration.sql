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
-- its open interval (intake_at, outcome_at):
--   - pet_stays_no_overlap: two lasting stays never meet, exactly as before
--     (a re-intake at the instant of the last outcome is no overlap);
--   - pet_stays_no_instant_inside: a stay of no length never lies inside a
--     lasting one (open or not); it may stand at its start or its end.
-- Stays of no length at one instant (an animal in and out twice on one day,
-- dates without times) may stand together: they are ordered by id. Ordering
-- by (intake_at, lasts, id) is then the time line (lib/stays/queries.ts
-- StayPosition), and nothing comes after an open stay: it is the latest.
--
-- Data that breaks the new rule makes this migration stop with PostgreSQL's
-- own message, naming both stays' keys: correct one of them, then migrate.

CREATE FUNCTION pet_stay_span(intake_at timestamptz, outcome_at timestamptz) RETURNS tstzrange
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN outcome_at = intake_at THEN tstzrange(intake_at, outcome_at, '[]') ELSE tstzrange(intake_at, outcome_at, '()') END
$$;

-- 1 for a stay that lasts (or is open), 0 for one of no length.
CREATE FUNCTION pet_stay_lasts(intake_at timestamptz, outcome_at timestamptz) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN outcome_at = intake_at THEN 0 ELSE 1 END
$$;

ALTER TABLE "pet_stays"
  DROP CONSTRAINT "pet_stays_no_overlap",
  ADD CONSTRAINT "pet_stays_no_overlap" EXCLUDE USING gist ("pet_id" WITH =, pet_stay_span("intake_at", "outcome_at") WITH &&)
    WHERE ("outcome_at" IS DISTINCT FROM "intake_at"),
  ADD CONSTRAINT "pet_stays_no_instant_inside" EXCLUDE USING gist
    ("pet_id" WITH =, pet_stay_span("intake_at", "outcome_at") WITH &&, pet_stay_lasts("intake_at", "outcome_at") WITH <>);
