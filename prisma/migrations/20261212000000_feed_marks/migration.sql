-- Every reader of the change feed reads its mark FOR UPDATE (lib/events/feed-reader.ts), which follows
-- a concurrent reader's committed move only when the row is there to lock. The dispatcher's and the
-- matcher's rows come from their migrations; the listing sites' scheduler started from position 0 with
-- no row until its first batch. Its row now exists from the start, at the position it read from.
INSERT INTO "event_marks" ("name", "position") VALUES ('listings', 0) ON CONFLICT ("name") DO NOTHING;
