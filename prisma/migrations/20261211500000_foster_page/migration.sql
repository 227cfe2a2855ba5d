-- Issue 50: the foster's own page and the foster application (docs/api.md,
-- "The foster's page and foster applications").
--
--   - people gain the language of their emails (known once they applied from
--     a page) and the time a foster last said "ready for another";
--   - foster_links: one private link per person, its token never stored (its
--     SHA-256 is), expiring; sending it again replaces the row, so the old
--     link stops working at once;
--   - foster_applications: what an applicant sent besides the person's own
--     fields (the message, the consent's time), and staff's decision: kept for
--     staff only;
--   - foster_notes: what a foster writes about an animal in their care, for
--     the organisation's staff.

ALTER TABLE "people" ADD COLUMN "locale" VARCHAR(8);
ALTER TABLE "people" ADD COLUMN "foster_ready_at" TIMESTAMPTZ(3);

CREATE TABLE "foster_links" (
    "person_id" BIGINT NOT NULL,
    "token_hash" CHAR(43) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "foster_links_pkey" PRIMARY KEY ("person_id"),
    CONSTRAINT "foster_links_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "people"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "foster_links_token_hash_key" ON "foster_links" ("token_hash");

CREATE TABLE "foster_applications" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" BIGINT NOT NULL,
    "person_id" BIGINT NOT NULL,
    "message" VARCHAR(2000),
    "consent_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decision" VARCHAR(10),
    "decision_message" VARCHAR(1000),
    "decided_at" TIMESTAMPTZ(3),
    "decided_by" VARCHAR(254),
    CONSTRAINT "foster_applications_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "foster_applications_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "foster_applications_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "people"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "foster_applications_decision_check" CHECK ("decision" IN ('approved', 'declined')),
    CONSTRAINT "foster_applications_decided_check" CHECK (("decision" IS NULL) = ("decided_at" IS NULL))
);
CREATE INDEX "foster_applications_person_id_idx" ON "foster_applications" ("person_id", "id");

CREATE TABLE "foster_notes" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" BIGINT NOT NULL,
    "person_id" BIGINT NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "body" VARCHAR(2000),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "foster_notes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "foster_notes_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "foster_notes_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "people"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "foster_notes_pet_id_fkey" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "foster_notes_person_id_idx" ON "foster_notes" ("person_id", "id");
