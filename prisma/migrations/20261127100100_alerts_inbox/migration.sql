-- Issue 32: the cap of alerts per address counts by the inbox the address
-- reaches, not by its spelling: mail providers ignore a "+tag", and Gmail
-- dots too (googlemail.com is gmail.com), so victim+1@gmail.com and
-- v.ictim@gmail.com are one inbox. The app writes the column
-- (lib/mail/inbox.ts inboxOf); this fills it once for the alerts stored
-- before, the same way (tests/api/migration-alerts-privacy.test.ts holds
-- the two to each other).
ALTER TABLE "alerts" ADD COLUMN "inbox" VARCHAR(254);

UPDATE "alerts" a
   SET "inbox" = CASE WHEN p.domain = 'gmail.com' THEN COALESCE(NULLIF(replace(p.untagged, '.', ''), ''), p.untagged) ELSE p.untagged END || '@' || p.domain
  FROM (
    SELECT id,
           COALESCE(NULLIF(split_part(substring(email FROM '^(.*)@'), '+', 1), ''), substring(email FROM '^(.*)@')) AS untagged,
           CASE substring(email FROM '@([^@]*)$') WHEN 'googlemail.com' THEN 'gmail.com' ELSE substring(email FROM '@([^@]*)$') END AS domain
      FROM "alerts"
  ) p
 WHERE p.id = a.id AND p.domain IS NOT NULL;
-- An address without an "@" (none pass validation): itself.
UPDATE "alerts" SET "inbox" = "email" WHERE "inbox" IS NULL;

ALTER TABLE "alerts" ALTER COLUMN "inbox" SET NOT NULL;
CREATE INDEX "alerts_inbox_idx" ON "alerts" ("inbox");
