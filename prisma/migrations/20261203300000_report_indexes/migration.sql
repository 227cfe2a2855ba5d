-- The monthly report (issue 42, docs/decisions/025): indexes, no rollup.
--
-- A month's intakes and outcomes are ranges of intake_on / outcome_on: an
-- organisation's come from the indexes of 20261203000000; the whole network's
-- (platform admins) from the two below.
CREATE INDEX "pet_stays_intake_on_idx" ON "pet_stays"("intake_on");
CREATE INDEX "pet_stays_outcome_on_idx" ON "pet_stays"("outcome_on") WHERE "outcome_on" IS NOT NULL;

-- A month's beginning count is the stays that began before its first day and
-- had not ended when it began: intake_on < day <= outcome_on (or no outcome),
-- that is the day lies in the range (intake_on, outcome_on]. A GiST index on
-- that range finds the few stays open on a day without reading every stay
-- that began before it (seven years of history for an old shelter).
-- organization_id first (btree_gist) for one shelter; the network's query
-- uses the same index on its second column.
CREATE INDEX "pet_stays_open_on_idx" ON "pet_stays" USING gist ("organization_id", daterange("intake_on", "outcome_on", '(]'));
