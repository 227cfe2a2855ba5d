-- Issue 50: an organisation's list of people is in name order (ignoring case), then by
-- id, and leaves erased people out (lib/people/queries.ts findPeoplePage). Its keyset
-- pages walk this index instead of sorting every person of the organisation.
CREATE INDEX "people_organization_id_name_idx" ON "people" ("organization_id", lower("name"), "id") WHERE "erased_at" IS NULL;
