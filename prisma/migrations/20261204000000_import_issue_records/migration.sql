-- Issue 48: a history import's report names recorded stays' dates and outcomes only to a reader with
-- records:read. The entry keeps both messages: `message` without them, `records_message` with them.
ALTER TABLE "import_issues" ADD COLUMN "records_message" VARCHAR(1000);
