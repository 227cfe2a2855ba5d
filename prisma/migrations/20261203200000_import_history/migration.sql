-- Issue 42, bringing a shelter's history in (docs/decisions/017-imports.md):
-- each entry of an import's report says what became of its row, and the
-- import keeps the words of closed-vocabulary fields it could not read, with
-- their counts, so a person completes the mapping's values once.

-- `refused`: the row (or the import, line 0) was not imported; `importedWithWarning`:
-- its animal was imported, something was read loosely or left out (a photo not
-- stored, a nameless animal named by its ID). Every entry before this was a refusal or a photo.
ALTER TABLE "import_issues" ADD COLUMN "result" VARCHAR(20) NOT NULL DEFAULT 'refused';
UPDATE "import_issues" SET "result" = 'importedWithWarning' WHERE "field" = 'photo' AND "line" > 0;
ALTER TABLE "import_issues" ADD CONSTRAINT "import_issues_result_check" CHECK ("result" IN ('refused', 'importedWithWarning'));

-- { field: [{ word, count }] }, most frequent first; emptied with the report.
ALTER TABLE "imports" ADD COLUMN "unknown_words" JSONB NOT NULL DEFAULT '{}';
