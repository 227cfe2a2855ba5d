-- "Email me new matches" (issue 27): an adopter's saved search, without an
-- account, double opt-in. Only the token's SHA-256 is kept to find an alert
-- by its link; the token itself is kept sealed (AES-256-GCM under the app's
-- secret, as application mail jobs carry theirs) because every later email
-- must carry the Manage and unsubscribe links again.
CREATE TYPE "AlertFrequency" AS ENUM ('hourly', 'daily');
CREATE TYPE "AlertStatus" AS ENUM ('unconfirmed', 'active', 'paused');

CREATE TABLE "alerts" (
    "id" BIGSERIAL PRIMARY KEY,
    -- Personal data: read by the alerts service and its mail job only.
    "email" VARCHAR(254) NOT NULL CHECK ("email" = lower("email")),
    "token_hash" CHAR(43) NOT NULL UNIQUE,
    "sealed_token" TEXT NOT NULL,
    "status" "AlertStatus" NOT NULL DEFAULT 'unconfirmed',
    "frequency" "AlertFrequency" NOT NULL,
    -- An IANA name PostgreSQL knows (checked on creation): the daily digest goes at 08:00 there.
    "time_zone" VARCHAR(64) NOT NULL DEFAULT 'UTC',
    -- The filters as the adopter gave them (what the alert's page shows, and
    -- what the dashboard groups by); the columns below are the same filters
    -- as the matcher reads them.
    "filters" JSONB NOT NULL,
    "category_id" BIGINT REFERENCES "categories"("id") ON DELETE CASCADE,
    "sex" "PetSex",
    "size" "PetSize",
    "age_group" "PetAgeGroup",
    -- Bits as pets.good_with_mask (children 1, dogs 2, cats 4): all must be yes.
    "good_with_mask" SMALLINT NOT NULL DEFAULT 0,
    -- A LIKE pattern over pets.search_name: '%' || pet_search_key(q), wildcards escaped, || '%'.
    "search_pattern" TEXT,
    -- The area: a point and a radius (as a chord in metres, as near search
    -- bounds it), and the box around it that the GiST index answers
    -- `box @> the shelter's point` with.
    "near_lat" DOUBLE PRECISION CHECK ("near_lat" BETWEEN -90 AND 90),
    "near_lng" DOUBLE PRECISION CHECK ("near_lng" BETWEEN -180 AND 180),
    "within_chord" DOUBLE PRECISION CHECK ("within_chord" > 0),
    "near_point" "public"."cube" GENERATED ALWAYS AS ("public"."geo_point"("near_lat", "near_lng")) STORED,
    "near_box" "public"."cube" GENERATED ALWAYS AS ("public"."cube_enlarge"("public"."geo_point"("near_lat", "near_lng"), "within_chord", 3)) STORED,
    "consent_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "confirmed_at" TIMESTAMPTZ(3),
    "last_sent_at" TIMESTAMPTZ(3),
    -- When its page was last opened (a link in an email followed): an alert
    -- untouched for 12 months gets one renewal email, then goes.
    "last_opened_at" TIMESTAMPTZ(3),
    "renewal_sent_at" TIMESTAMPTZ(3),
    CHECK (("near_lat" IS NULL) = ("near_lng" IS NULL) AND ("near_lat" IS NULL) = ("within_chord" IS NULL)),
    CHECK (("status" = 'unconfirmed') = ("confirmed_at" IS NULL))
);
-- Matching one animal: the alerts with an area whose box holds its shelter...
CREATE INDEX "alerts_active_area_idx" ON "alerts" USING gist ("near_box") WHERE "status" = 'active' AND "near_box" IS NOT NULL;
-- ...and those without an area, by category (null: any).
CREATE INDEX "alerts_active_anywhere_idx" ON "alerts" ("category_id") WHERE "status" = 'active' AND "near_box" IS NULL;
-- The budget of alerts per address, export and erasure.
CREATE INDEX "alerts_email_idx" ON "alerts" ("email");
-- Unconfirmed alerts expire after 7 days.
CREATE INDEX "alerts_unconfirmed_idx" ON "alerts" ("created_at") WHERE "status" = 'unconfirmed';

-- An animal found for an alert: waiting until the alert's next email
-- (sent_at null), then kept as sent so that the same animal is not sent
-- twice (unless it leaves and becomes available again).
CREATE TABLE "alert_matches" (
    "alert_id" BIGINT NOT NULL REFERENCES "alerts"("id") ON DELETE CASCADE,
    "pet_id" BIGINT NOT NULL REFERENCES "pets"("id") ON DELETE CASCADE,
    "queued_at" TIMESTAMPTZ(3) NOT NULL,
    "sent_at" TIMESTAMPTZ(3),
    PRIMARY KEY ("alert_id", "pet_id")
);
-- The sender starts from what waits.
CREATE INDEX "alert_matches_waiting_idx" ON "alert_matches" ("alert_id", "queued_at") WHERE "sent_at" IS NULL;
CREATE INDEX "alert_matches_pet_id_idx" ON "alert_matches" ("pet_id");

-- The matcher reads the change feed from its own mark; it starts at the
-- feed's end (no alert existed before this).
INSERT INTO "event_marks" ("name", "position") SELECT 'matched', COALESCE(max("position"), 0) FROM "events"
ON CONFLICT ("name") DO NOTHING;
