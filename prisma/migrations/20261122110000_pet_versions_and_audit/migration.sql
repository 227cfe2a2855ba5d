-- Issue 11: animals can change, so each carries a version (the ETag that
-- If-Match is compared with) and every create and update leaves an audit
-- record (docs/decisions/004-changing-animals.md).

-- CreateEnum
CREATE TYPE "AuditAction" AS ENUM ('created', 'updated');

-- CreateEnum
CREATE TYPE "ActorKind" AS ENUM ('api_key', 'staff');

-- AlterTable
-- Existing animals start at version 1, as new ones do.
ALTER TABLE "pets" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "pet_audit" (
    "id" BIGSERIAL NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "action" "AuditAction" NOT NULL,
    "version" INTEGER NOT NULL,
    "actor_kind" "ActorKind" NOT NULL,
    "actor_id" BIGINT NOT NULL,
    "actor_name" VARCHAR(254) NOT NULL,
    "request_id" VARCHAR(128) NOT NULL,
    "before" JSONB,
    "after" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pet_audit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pet_audit_pet_id_id_idx" ON "pet_audit"("pet_id", "id");

-- Append-only, enforced by the database rather than by convention: whatever
-- connects as the app (a bug, a console session, a stray script) cannot
-- rewrite or erase history. Written by hand; Prisma cannot express triggers.
-- TRUNCATE stays possible for the owner (test resets, `db reset`).
CREATE FUNCTION "pet_audit_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'pet_audit is append-only: % is not allowed', TG_OP;
END;
$$;

CREATE TRIGGER "pet_audit_append_only"
BEFORE UPDATE OR DELETE ON "pet_audit"
FOR EACH ROW EXECUTE FUNCTION "pet_audit_refuse_change"();
