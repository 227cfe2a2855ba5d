-- What names this database to services shared with other deployments.
-- Rate-limit counters kept in Redis are named after it: staging and
-- production (or two test runs) pointed at one Redis would otherwise count
-- the requests of their key 1 together. Every instance of one deployment
-- reads the same row, so its instances still share their counts.

-- CreateTable
CREATE TABLE "deployment" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "namespace" UUID NOT NULL DEFAULT gen_random_uuid(),

    CONSTRAINT "deployment_pkey" PRIMARY KEY ("id")
);

-- One row, made here so that it exists before any instance starts.
INSERT INTO "deployment" DEFAULT VALUES;
