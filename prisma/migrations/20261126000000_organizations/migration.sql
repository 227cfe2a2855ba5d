-- Many shelters, one service (issue 26). The organisation (a shelter or a
-- rescue) is the unit of tenancy: animals, staff, API keys, applications,
-- webhooks (through their keys) and events belong to one. Reads of animals
-- stay public across all of them.
--
-- The database as it was becomes the first organisation: every existing
-- animal, key, staff account, application and event is moved into it, so a
-- one-shelter install goes on working exactly as before.

-- Places. A location is a point on a sphere of the Earth's mean radius
-- (6,371.0088 km, IUGG), as a 3-D `cube` in metres: GiST orders by the
-- straight-line (chord) distance `<->`, which grows with the great-circle
-- distance, and encloses a search area in a cube_enlarge()d box. The
-- great-circle distance is 2R·asin(chord / 2R) (lib/organizations/geo.ts).
-- earthdistance's ll_to_earth would do the same on a 6,378.168 km sphere,
-- but its body names the `earth` type without a schema, so a pg_dump of an
-- index or generated column over it cannot be restored ("type earth does not
-- exist"): these functions qualify every name, and only `cube` is needed.
CREATE EXTENSION IF NOT EXISTS "cube" WITH SCHEMA "public";

-- A SQL-standard body, parsed here with every name resolved: neither the
-- search_path nor a restore can change what it means.
CREATE FUNCTION "public"."geo_point"("lat" DOUBLE PRECISION, "lng" DOUBLE PRECISION) RETURNS "public"."cube"
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN "public"."cube"(ARRAY[
  6371008.8 * cos(radians("lat")) * cos(radians("lng")),
  6371008.8 * cos(radians("lat")) * sin(radians("lng")),
  6371008.8 * sin(radians("lat"))
]::DOUBLE PRECISION[]);

CREATE TABLE "organizations" (
    "id" BIGSERIAL PRIMARY KEY,
    "name" VARCHAR(200) NOT NULL,
    -- URL-safe and unique: the shelter's page is /shelters/<slug>.
    "slug" VARCHAR(100) NOT NULL UNIQUE CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    "email" VARCHAR(254),
    "phone" VARCHAR(40),
    "website" VARCHAR(2048),
    -- The address. Null city and country only for the organisation an older
    -- install was migrated into, until its staff fill in its profile.
    "street" VARCHAR(200),
    "city" VARCHAR(100),
    "region" VARCHAR(100),
    "postcode" VARCHAR(20),
    -- ISO 3166-1 alpha-2.
    "country" CHAR(2) CHECK ("country" ~ '^[A-Z]{2}$'),
    "lat" DOUBLE PRECISION CHECK ("lat" BETWEEN -90 AND 90),
    "lng" DOUBLE PRECISION CHECK ("lng" BETWEEN -180 AND 180),
    "earth_point" "public"."cube" GENERATED ALWAYS AS ("public"."geo_point"("lat", "lng")) STORED,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CHECK (("lat" IS NULL) = ("lng" IS NULL)),
    CHECK (("city" IS NULL) = ("country" IS NULL))
);
-- Near search: the nearest organisations first, within a box.
CREATE INDEX "organizations_earth_point_idx" ON "organizations" USING gist ("earth_point") WHERE "earth_point" IS NOT NULL;
-- The directory's order (name, then id) and its name search (trigram, as for animals).
CREATE INDEX "organizations_name_idx" ON "organizations" (lower("name"), "id");
CREATE INDEX "organizations_search_idx" ON "organizations" USING gin ("public"."pet_search_key"("name") "public"."gin_trgm_ops");

-- The first organisation: what the database held until now. Its name is
-- the site's; `npm run db:migrate` (prisma/seed.ts) renames it from
-- SHELTER_NAME while it still has this name.
INSERT INTO "organizations" ("id", "name", "slug") VALUES (1, 'Petstore', 'petstore');
SELECT setval('organizations_id_seq', 1);

-- Animals.
ALTER TABLE "pets" ADD COLUMN "organization_id" BIGINT;
UPDATE "pets" SET "organization_id" = 1;
ALTER TABLE "pets" ALTER COLUMN "organization_id" SET NOT NULL;
ALTER TABLE "pets" ADD CONSTRAINT "pets_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT;
-- One shelter's animals newest first (?organizationId=, a shelter's page,
-- and each organisation's walk of a near search), with and without a status.
CREATE INDEX "pets_organization_id_id_idx" ON "pets" ("organization_id", "id");
CREATE INDEX "pets_organization_id_status_id_idx" ON "pets" ("organization_id", "status", "id");

-- API keys: an organisation's, or (null) a platform key for listing sites and operators.
ALTER TABLE "api_keys" ADD COLUMN "organization_id" BIGINT REFERENCES "organizations"("id") ON DELETE RESTRICT;
UPDATE "api_keys" SET "organization_id" = 1;
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys" ("organization_id", "id");

-- Staff: each of one organisation, or a platform admin (who runs the service).
ALTER TABLE "staff_users" ADD COLUMN "organization_id" BIGINT REFERENCES "organizations"("id") ON DELETE RESTRICT;
ALTER TABLE "staff_users" ADD COLUMN "platform_admin" BOOLEAN NOT NULL DEFAULT false;
UPDATE "staff_users" SET "organization_id" = 1;
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_organization_or_platform" CHECK ("organization_id" IS NOT NULL OR "platform_admin");

-- Applications belong to the animal's organisation (copied, for the inbox's indexes).
ALTER TABLE "adoption_applications" ADD COLUMN "organization_id" BIGINT;
UPDATE "adoption_applications" a SET "organization_id" = p."organization_id" FROM "pets" p WHERE p."id" = a."pet_id";
ALTER TABLE "adoption_applications" ALTER COLUMN "organization_id" SET NOT NULL;
ALTER TABLE "adoption_applications" ADD CONSTRAINT "adoption_applications_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT;
CREATE INDEX "adoption_applications_organization_id" ON "adoption_applications" ("organization_id", "id" DESC);
CREATE INDEX "adoption_applications_organization_state_id" ON "adoption_applications" ("organization_id", "state", "id" DESC);

-- Events: each carries its animal's organisation, so an organisation's key
-- reads (and its webhooks receive) only its own.
ALTER TABLE "events" ADD COLUMN "organization_id" BIGINT;
UPDATE "events" SET "organization_id" = 1;
ALTER TABLE "events" ALTER COLUMN "organization_id" SET NOT NULL;
CREATE INDEX "events_organization_id_position_idx" ON "events" ("organization_id", "position");

-- The event of a change names the animal's organisation: from the record
-- (which holds it from now on), else from the animal (records written
-- before organisations existed). Otherwise as in migration 20261124000000.
CREATE OR REPLACE FUNCTION "pet_audit_announce"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- (7411, 1): the feed's commit-order lock (two-key form, apart from any one-key lock).
  PERFORM pg_advisory_xact_lock(7411, 1);
  INSERT INTO "events" ("position", "type", "pet_id", "organization_id", "data", "created_at")
  VALUES (
    nextval('events_position_seq'),
    CASE NEW."action" WHEN 'created' THEN 'pet.created' ELSE 'pet.updated' END,
    NEW."pet_id",
    COALESCE((NEW."after" ->> 'organizationId')::bigint, (SELECT "organization_id" FROM "pets" WHERE "id" = NEW."pet_id")),
    -- `previous`: the changed fields' old values, absent on creation.
    CASE WHEN NEW."before" IS NULL OR jsonb_typeof(NEW."before") = 'null'
         THEN jsonb_build_object('pet', NEW."after")
         ELSE jsonb_build_object('pet', NEW."after", 'previous', NEW."before") END,
    clock_timestamp()
  );
  -- Wakes webhook dispatch on every instance (LISTEN petstore_events), delivered at commit.
  PERFORM pg_notify('petstore_events', '');
  RETURN NULL;
END;
$$;
