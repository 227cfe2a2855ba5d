-- Imports of listing files (issue 34, docs/decisions/017): one row per file
-- an organisation sent, which the background job reads and reports into.
-- The file is kept in the row until the job has read it (at most 10 MB), so
-- a job that runs after a restart, or on another instance, still has it.

CREATE TYPE "ImportStatus" AS ENUM ('queued', 'running', 'done', 'failed');

CREATE TABLE "imports" (
  "id" BIGSERIAL PRIMARY KEY,
  "organization_id" BIGINT NOT NULL REFERENCES "organizations"("id") ON DELETE CASCADE,
  "format" VARCHAR(20) NOT NULL CHECK ("format" IN ('petfinder', 'adoptapet', 'rescuegroups', 'generic')),
  "encoding" VARCHAR(20) NOT NULL,
  "file_name" VARCHAR(255),
  "file" BYTEA,
  "dry_run" BOOLEAN NOT NULL,
  "missing" VARCHAR(10) NOT NULL CHECK ("missing" IN ('keep', 'adopted')),
  "mapping" JSONB,
  "status" "ImportStatus" NOT NULL DEFAULT 'queued',
  "counts" JSONB NOT NULL,
  "photos" JSONB NOT NULL,
  "errors" JSONB NOT NULL DEFAULT '[]',
  "preview" JSONB NOT NULL DEFAULT '[]',
  "actor_kind" "ActorKind" NOT NULL,
  "actor_id" BIGINT NOT NULL,
  "actor_name" VARCHAR(254),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "started_at" TIMESTAMPTZ(3),
  "finished_at" TIMESTAMPTZ(3)
);

-- An organisation's imports, newest first (GET /v1/imports), and its last generic mapping.
CREATE INDEX "imports_organization_id_id_idx" ON "imports"("organization_id", "id");

-- Where an imported photo came from: a re-import does not fetch it again.
ALTER TABLE "pet_photos" ADD COLUMN "source_url" VARCHAR(2048);
CREATE INDEX "pet_photos_pet_id_source_url_idx" ON "pet_photos"("pet_id", "source_url") WHERE "source_url" IS NOT NULL;
