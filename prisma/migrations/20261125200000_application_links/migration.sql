-- Issue 28: applying again while an application is open no longer says
-- which application or since when (anyone can name any email); the private
-- link is emailed to that address again instead. The token is never stored,
-- so what is sent is a new link to the same application; the first keeps
-- working. Only the SHA-256 of each token is kept, as for the first.
CREATE TABLE "application_links" (
    "token_hash" CHAR(43) PRIMARY KEY,
    "application_id" BIGINT NOT NULL REFERENCES "adoption_applications"("id") ON DELETE CASCADE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "application_links_application_id" ON "application_links" ("application_id");
