-- Imports that cannot take the service down with them (issue 40):
--   * the report (rejected rows, failed photos) as rows of their own, appended
--     as the job goes and read a page at a time, instead of one JSON array
--     rewritten after every chunk and sent whole with every listed import;
--   * one queued or running import per organisation, dry runs included
--     (POST /v1/imports answers 409 import_in_progress), held by the index;
--   * a lease on the run, so two processes (the CLI and a server's worker)
--     never run the same import at once;
--   * the report's retention: deleted 90 days after the import finished
--     (report_deleted_at says it was).

CREATE TABLE "import_issues" (
  "id" BIGSERIAL PRIMARY KEY,
  "import_id" BIGINT NOT NULL REFERENCES "imports"("id") ON DELETE CASCADE,
  "line" INTEGER NOT NULL,
  "field" VARCHAR(200),
  "message" VARCHAR(1000) NOT NULL
);
-- A report's pages, in the order the job found its issues.
CREATE INDEX "import_issues_import_id_id_idx" ON "import_issues"("import_id", "id");

-- The reports written so far, in their order; a message is cut to 300
-- characters (older ones quoted whole cells).
INSERT INTO "import_issues" ("import_id", "line", "field", "message")
SELECT i."id", COALESCE((e.value->>'line')::int, 0), left(e.value->>'field', 200), left(COALESCE(e.value->>'message', ''), 300)
  FROM "imports" i CROSS JOIN LATERAL jsonb_array_elements(i."errors") WITH ORDINALITY AS e(value, n)
 ORDER BY i."id", e.n;

ALTER TABLE "imports"
  ADD COLUMN "issue_count" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "lease_owner" VARCHAR(200),
  ADD COLUMN "lease_expires_at" TIMESTAMPTZ(3),
  ADD COLUMN "report_deleted_at" TIMESTAMPTZ(3);
UPDATE "imports" i SET "issue_count" = n FROM (SELECT "import_id", count(*)::int AS n FROM "import_issues" GROUP BY "import_id") c WHERE c."import_id" = i."id";
ALTER TABLE "imports" DROP COLUMN "errors";

-- Several imports of one organisation may be waiting from before: the
-- oldest keeps its place, the others stop (their files are not kept) and
-- say why.
WITH extra AS (
  SELECT "id" FROM "imports" i
   WHERE "status" IN ('queued', 'running')
     AND EXISTS (SELECT 1 FROM "imports" o WHERE o."organization_id" = i."organization_id" AND o."status" IN ('queued', 'running') AND o."id" < i."id")
), stopped AS (
  UPDATE "imports" SET "status" = 'failed', "finished_at" = now(), "file" = NULL, "issue_count" = "issue_count" + 1
   WHERE "id" IN (SELECT "id" FROM extra) RETURNING "id"
)
INSERT INTO "import_issues" ("import_id", "line", "field", "message")
SELECT "id", 0, NULL, 'Stopped by an upgrade that runs one import of an organisation at a time: send the file again.' FROM stopped;

CREATE UNIQUE INDEX "imports_one_active_per_organization" ON "imports"("organization_id") WHERE "status" IN ('queued', 'running');
-- The reports due for deletion.
CREATE INDEX "imports_report_finished_at_idx" ON "imports"("finished_at") WHERE "report_deleted_at" IS NULL;
