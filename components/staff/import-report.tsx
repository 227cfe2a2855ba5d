"use client";

import "@/lib/zod-jitless";
import { FormAlert } from "@/components/staff/form-alert";
import { labelClass, panelClass, secondaryButtonClass } from "@/components/staff/styles";
import { useImportIssues } from "@/components/staff/use-imports";
import type { Import } from "@/lib/imports/schemas";
import { FORMAT_NAMES } from "@/components/staff/import-mapping";
import { describeError } from "@/lib/site/api-client";
import { TableScroll } from "@/components/staff/table-scroll";
import { UnknownWords } from "@/components/staff/import-values";

// An import's report as the staff see it: its counts, the rejected rows, the
// dry run's preview of the first rows, and the progress of a running import.

export function Counts({ report, verb }: { report: Import; verb: string }) {
  const c = report.counts;
  return (
    <p>
      {verb}: <strong>{c.created}</strong> new, <strong>{c.updated}</strong> changed, <strong>{c.unchanged}</strong> unchanged, <strong>{c.rejected}</strong>{" "}
      rejected
      {c.adopted ? (
        <>
          , <strong>{c.adopted}</strong> marked adopted
        </>
      ) : null}
      .
    </p>
  );
}

/** The report, read a page at a time from its own route (GET /v1/imports/{id}/issues) once the import has finished. */
export function Rejections({ report }: { report: Import }) {
  const pages = useImportIssues(report);
  if (!report.issues) return null;
  const issues = pages.data?.pages.flatMap((page) => page.issues) ?? [];
  return (
    <div>
      <h3 className="font-semibold">Rows refused, and rows imported with a warning{report.issues > issues.length ? ` (${report.issues} in all)` : ""}</h3>
      {pages.error ? <FormAlert>Could not load the report. {describeError(pages.error)}</FormAlert> : null}
      <ul className="list-disc pl-6 text-sm break-words">
        {issues.map((e, i) => (
          <li key={i}>
            {e.line ? `Line ${e.line}` : "File"}
            {e.field ? ` (${e.field})` : ""}
            {e.result === "refused" ? ", refused" : ", imported with a warning"}: {e.message}
          </li>
        ))}
      </ul>
      {pages.hasNextPage ? (
        <button type="button" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage} className={`${secondaryButtonClass} mt-2`}>
          {pages.isFetchingNextPage ? "Loading more…" : "Show more"}
        </button>
      ) : null}
    </div>
  );
}

export function Preview({ report }: { report: Import }) {
  return (
    <section className={`${panelClass} space-y-3`} aria-label="Preview">
      <h2 className="text-lg font-semibold">Preview</h2>
      <p>
        Format: <strong>{FORMAT_NAMES[report.format] ?? report.format}</strong> ({report.encoding}), {report.counts.rows} rows.
      </p>
      <Counts report={report} verb="Importing would give" />
      <UnknownWords report={report} />
      <TableScroll label="Preview rows, scrollable">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">The first rows as they would be saved</caption>
          <thead>
            <tr>
              {["Line", "ID", "Name", "Species", "What happens"].map((h) => (
                <th key={h} scope="col" className="py-1 pr-3">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.preview.map((row) => (
              <tr key={row.line} className="border-t border-stone-200">
                <td className="py-1 pr-3">{row.line}</td>
                <td className="py-1 pr-3">{row.externalId ?? "—"}</td>
                <td className="py-1 pr-3">{row.name ?? "—"}</td>
                <td className="py-1 pr-3">{row.species ?? "—"}</td>
                <td className="py-1 pr-3">
                  {
                    { create: "New animal", update: `Changes ${Object.keys(row.fields).join(", ")}`, unchanged: "Nothing changes", reject: "Rejected" }[
                      row.action
                    ]
                  }
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Rejections report={report} />
    </section>
  );
}

export function Progress({ report }: { report: Import }) {
  const c = report.counts;
  const rowsDone = c.created + c.updated + c.unchanged + c.rejected;
  const photosPhase = rowsDone >= c.rows && report.photos.queued > 0;
  const [done, total] = photosPhase ? [report.photos.stored + report.photos.failed, report.photos.queued] : [rowsDone, c.rows];
  const finished = report.status === "done" || report.status === "failed";
  return (
    <section className={`${panelClass} space-y-3`} aria-label="Import">
      <h2 className="text-lg font-semibold">{finished ? (report.status === "done" ? "Import finished" : "Import stopped") : "Importing…"}</h2>
      {!finished ? (
        <div>
          <label className={labelClass} htmlFor={`progress-${report.id}`}>
            {photosPhase ? "Photos" : "Animals"}: {done} of {total}
          </label>
          <progress id={`progress-${report.id}`} className="w-full" max={Math.max(total, 1)} value={done} />
        </div>
      ) : (
        <div role="status" className="space-y-2">
          <Counts report={report} verb="Imported" />
          <p>
            Photos: {report.photos.stored} stored, {report.photos.failed} failed{report.photos.skipped ? `, ${report.photos.skipped} left out` : ""}.
          </p>
        </div>
      )}
      {finished ? <Rejections report={report} /> : null}
      {finished ? (
        <a href="/staff/import" className={secondaryButtonClass}>
          Import another file
        </a>
      ) : null}
    </section>
  );
}
