-- When a key's last ban was written, so the limiter writes at most one ban
-- per minute window (and does not write again a ban staff just lifted).
ALTER TABLE "api_keys" ADD COLUMN "last_banned_at" TIMESTAMPTZ(3);
