-- Adopters' sessions became stateless signed tokens: their rows are no
-- longer read, and the table now holds staff sessions only.
DELETE FROM "sessions" WHERE "staff_user_id" IS NULL;

ALTER TABLE "sessions" ALTER COLUMN "staff_user_id" SET NOT NULL;
