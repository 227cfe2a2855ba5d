-- Issue 40: who changed a listing site, and what (never the password).
-- Every create, change and delete of a listing site writes a row here in
-- the transaction of the change (lib/listings/uploads/service.ts). No
-- foreign key: the history outlives the site it describes (a deletion is
-- recorded too). Append-only, as pet_audit: a trigger refuses UPDATE and
-- DELETE, so a bug or a stray session cannot rewrite it (TRUNCATE stays
-- possible for the owner: test resets, `db reset`).

CREATE TYPE "ListingSiteAuditAction" AS ENUM ('created', 'updated', 'deleted');

CREATE TABLE "listing_site_audit" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" BIGINT NOT NULL,
    "site_id" BIGINT NOT NULL,
    "site" "ListingSiteKind" NOT NULL,
    "action" "ListingSiteAuditAction" NOT NULL,
    -- The fields set or changed ("password" when one was given); never a value of it.
    "fields" TEXT[] NOT NULL DEFAULT '{}',
    -- The changed fields' values before and after (host, port, secure, username, accountId, enabled).
    "before" JSONB,
    "after" JSONB,
    "actor_kind" "ActorKind" NOT NULL,
    "actor_id" BIGINT NOT NULL,
    "actor_name" VARCHAR(254) NOT NULL,
    "request_id" VARCHAR(128) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "listing_site_audit_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "listing_site_audit_organization_id_id_idx" ON "listing_site_audit"("organization_id", "id");
CREATE INDEX "listing_site_audit_site_id_id_idx" ON "listing_site_audit"("site_id", "id");

CREATE FUNCTION "listing_site_audit_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'listing_site_audit is append-only: % is not allowed', TG_OP;
END;
$$;

CREATE TRIGGER "listing_site_audit_append_only"
BEFORE UPDATE OR DELETE ON "listing_site_audit"
FOR EACH ROW EXECUTE FUNCTION "listing_site_audit_refuse_change"();
