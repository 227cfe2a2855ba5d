-- Listing sites (issue 35): an organisation's FTP accounts on Petfinder,
-- Adopt-a-Pet and RescueGroups, and the log of uploads to each
-- (docs/decisions/018-listing-uploads.md). New tables only: nothing existing changes.

CREATE TYPE "ListingSiteKind" AS ENUM ('petfinder', 'adoptapet', 'rescuegroups');
CREATE TYPE "ListingUploadReason" AS ENUM ('change', 'daily', 'manual');
CREATE TYPE "ListingUploadOutcome" AS ENUM ('running', 'sent', 'failed');

CREATE TABLE "listing_sites" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" BIGINT NOT NULL,
    "site" "ListingSiteKind" NOT NULL,
    "host" VARCHAR(253) NOT NULL,
    "port" INTEGER NOT NULL DEFAULT 21 CHECK ("port" BETWEEN 1 AND 65535),
    "secure" BOOLEAN NOT NULL DEFAULT false,
    "username" VARCHAR(200) NOT NULL,
    -- Sealed with lib/webhooks/secrets.ts (never the password itself).
    "password" TEXT NOT NULL,
    "account_id" VARCHAR(100),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "sent_photos" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "listing_sites_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "listing_uploads" (
    "id" BIGSERIAL NOT NULL,
    "site_id" BIGINT NOT NULL,
    "reason" "ListingUploadReason" NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "outcome" "ListingUploadOutcome" NOT NULL DEFAULT 'running',
    "animals" INTEGER NOT NULL DEFAULT 0,
    "photos" INTEGER NOT NULL DEFAULT 0,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "error" VARCHAR(1000),
    CONSTRAINT "listing_uploads_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "listing_sites_organization_id_id_idx" ON "listing_sites"("organization_id", "id");
CREATE INDEX "listing_uploads_site_id_id_idx" ON "listing_uploads"("site_id", "id");

ALTER TABLE "listing_sites" ADD CONSTRAINT "listing_sites_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "listing_uploads" ADD CONSTRAINT "listing_uploads_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "listing_sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;
