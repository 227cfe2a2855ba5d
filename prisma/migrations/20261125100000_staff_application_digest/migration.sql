-- Staff who opted in get a daily email listing the new adoption applications.
ALTER TABLE "staff_users" ADD COLUMN "application_digest" BOOLEAN NOT NULL DEFAULT false;
