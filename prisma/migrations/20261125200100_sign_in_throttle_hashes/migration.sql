-- Issue 28: the sign-in throttle kept the email of every account tried, in
-- plain text, and keyed its rows with an unkeyed SHA-256 of it (which a list
-- of likely emails reverses). It now keeps a keyed hash (HMAC-SHA256 under a
-- key derived from SESSION_SECRET, lib/staff/throttle.ts) in "account".
-- SQL cannot compute that hash (the database never sees the secret), so the
-- rows of accounts are dropped, and the email column with them: account
-- lock-outs in force at the upgrade are lifted, and their failures counted
-- again from zero. The rows of addresses name no one and stay, lock-outs
-- included, so guessing across accounts from one address stays bounded.
DELETE FROM "sign_in_throttles" WHERE "key" LIKE 'account:%';
ALTER TABLE "sign_in_throttles" DROP COLUMN "email";
ALTER TABLE "sign_in_throttles" ADD COLUMN "account" CHAR(32);
CREATE INDEX "sign_in_throttles_account_idx" ON "sign_in_throttles" ("account");
