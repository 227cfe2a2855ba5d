-- Adoption applications (issue 20): adopters apply for an available animal,
-- staff decide, and the animal's status follows in the same transaction.
-- Applicants are personal data: these tables are never read by API keys,
-- never copied into events, and anonymised after the retention period.

CREATE TYPE "ApplicationState" AS ENUM ('received', 'in_review', 'approved', 'declined', 'withdrawn', 'completed', 'cancelled');
CREATE TYPE "ApplicantHome" AS ENUM ('house', 'flat', 'other');

CREATE TABLE "adoption_applications" (
    "id" BIGSERIAL PRIMARY KEY,
    "pet_id" BIGINT NOT NULL REFERENCES "pets"("id") ON DELETE RESTRICT,
    -- SHA-256 (base64url) of the private link's token; the token itself is never stored.
    "token_hash" CHAR(43) NOT NULL UNIQUE,
    "state" "ApplicationState" NOT NULL DEFAULT 'received',
    -- Null once anonymised (retention, or erasure on request).
    "name" VARCHAR(100),
    "email" VARCHAR(254),
    "phone" VARCHAR(40),
    "home" "ApplicantHome",
    "other_animals" VARCHAR(500),
    "message" VARCHAR(2000),
    "consent_at" TIMESTAMPTZ(3) NOT NULL,
    -- The partner key that forwarded it; null when sent from the site.
    "source_key_id" BIGINT REFERENCES "api_keys"("id") ON DELETE SET NULL,
    -- What staff told the applicant with a decline (e.g. on completing another adoption).
    "decision_message" VARCHAR(1000),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "anonymised_at" TIMESTAMPTZ(3)
);

-- One open application per person and animal (the kind 409 points to it).
CREATE UNIQUE INDEX "adoption_applications_open_per_email" ON "adoption_applications" ("pet_id", lower("email"))
    WHERE "state" IN ('received', 'in_review', 'approved');
-- At most one approved application per animal: the last guard of the approve race.
CREATE UNIQUE INDEX "adoption_applications_one_approved" ON "adoption_applications" ("pet_id") WHERE "state" = 'approved';
-- The staff inbox: newest first, by state, by animal.
CREATE INDEX "adoption_applications_state_id" ON "adoption_applications" ("state", "id" DESC);
CREATE INDEX "adoption_applications_pet_id" ON "adoption_applications" ("pet_id", "id" DESC);
-- Export and erasure by email; retention by age.
CREATE INDEX "adoption_applications_email" ON "adoption_applications" (lower("email"));
CREATE INDEX "adoption_applications_updated_at" ON "adoption_applications" ("updated_at") WHERE "anonymised_at" IS NULL;

-- Each step of an application: who moved it from which state to which, when.
CREATE TABLE "application_steps" (
    "id" BIGSERIAL PRIMARY KEY,
    "application_id" BIGINT NOT NULL REFERENCES "adoption_applications"("id") ON DELETE CASCADE,
    "from_state" "ApplicationState",
    "to_state" "ApplicationState" NOT NULL,
    -- 'adopter' (the private link), 'staff', 'api_key' (a partner forwarding it) or 'system'.
    "actor_kind" VARCHAR(16) NOT NULL,
    "actor_id" BIGINT,
    "actor_name" VARCHAR(254),
    "request_id" VARCHAR(200),
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "application_steps_application_id" ON "application_steps" ("application_id", "id");
