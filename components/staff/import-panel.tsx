"use client";

import "@/lib/zod-jitless";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { FormAlert } from "@/components/staff/form-alert";
import { SessionStatus } from "@/components/staff/session-status";
import { StaffOnly } from "@/components/staff/staff-only";
import { hintClass, inputClass, labelClass, panelClass, primaryButtonClass } from "@/components/staff/styles";
import { fetchImport, headerOf, startImport, STAFF_IMPORTS_QUERY_KEY, useImport, usePastImports } from "@/components/staff/use-imports";
import { useStaffSession } from "@/components/staff/use-staff-session";
import { GENERIC_FIELDS } from "@/lib/listings/formats/generic";
import { describeError } from "@/lib/site/api-client";
import type { SessionInfo } from "@/lib/staff/schemas";
import { TableScroll } from "@/components/staff/table-scroll";
import { FORMAT_NAMES, FIELD_WORDS, guessMapping, type Mapping } from "@/components/staff/import-mapping";
import { Preview, Progress, Rejections } from "@/components/staff/import-report";
import { parseValues, ValuesEditor } from "@/components/staff/import-values";

// /staff/import: choose a file, see what it would do (a dry run: the
// detected format, the first rows as they would be saved, every rejected row
// with its line and reason), then import it and follow its progress (rows,
// then photos) to the report. A CSV of no site's format gets a mapping step:
// its columns beside our fields. Past imports are listed below.
//
// The formats' words and the mapping's guess: components/staff/import-mapping.ts;
// the report's views: components/staff/import-report.tsx.

export function ImportPanel({ initialSession }: { initialSession: SessionInfo | null }) {
  const { isStaff, isPending, error, session } = useStaffSession(initialSession);
  if (isPending || !session) return <SessionStatus error={error} />;
  if (!isStaff) return <StaffOnly next="/staff/import" doing="import animals" />;
  if (session.platformAdmin)
    return <FormAlert tone="info">Imports are made by a shelter&apos;s own staff (or with the API, naming the organisation).</FormAlert>;
  return <Importer />;
}

function Importer() {
  const queryClient = useQueryClient();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[] | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [valuesText, setValuesText] = useState("");
  const [previewId, setPreviewId] = useState<number | null>(null);
  const [runId, setRunId] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const past = usePastImports(true);
  const preview = useImport(previewId);
  const run = useImport(runId);

  const generic = columns !== null;
  const send = async (dryRun: boolean, chosen: File, withMapping?: Mapping) => {
    setBusy(true);
    setProblem(null);
    try {
      const { values } = parseValues(valuesText);
      const started = await startImport({
        file: chosen,
        dryRun,
        ...(withMapping ? { format: "generic", mapping: values ? { ...withMapping, values } : withMapping } : {}),
      });
      if (dryRun) setPreviewId(started.id);
      else setRunId(started.id);
      void queryClient.invalidateQueries({ queryKey: STAFF_IMPORTS_QUERY_KEY, exact: true });
    } catch (error) {
      const code = (error as { code?: string }).code;
      const unknownFormat = code === "invalid_mapping" || (error as { details?: { issue: string }[] }).details?.[0]?.issue === "unknown_format";
      if (dryRun && unknownFormat && !withMapping) {
        // Not a site's file: its columns beside our fields.
        const header = await headerOf(chosen);
        // The newest generic import's mapping, as a starting point (the list carries no mappings).
        const lastGeneric = past.data?.find((i) => i.format === "generic");
        const last = lastGeneric ? ((await fetchImport(lastGeneric.id).catch(() => null))?.mapping as Mapping | null | undefined) : null;
        const lastValues = (last as { values?: unknown } | null | undefined)?.values;
        if (lastValues) setValuesText(JSON.stringify(lastValues, null, 2));
        setColumns(header);
        setMapping(guessMapping(header, last ?? null));
      } else setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setColumns(null);
    setPreviewId(null);
    setRunId(null);
    if (chosen) void send(true, chosen);
  };

  const ready = preview.data?.status === "done" ? preview.data : null;
  const importable = ready ? ready.counts.created + ready.counts.updated : 0;

  return (
    <div className="space-y-6">
      <section className={`${panelClass} space-y-4`} aria-labelledby={`${fileId}-title`}>
        <h2 id={`${fileId}-title`} className="text-lg font-semibold">
          1. Choose a file
        </h2>
        <div>
          <label htmlFor={fileId} className={labelClass}>
            Listing file (CSV)
          </label>
          <input id={fileId} type="file" accept=".csv,text/csv" className={inputClass(false)} onChange={(e) => choose(e.target.files?.[0] ?? null)} />
          <p className={hintClass}>
            Petfinder, Adopt-a-Pet or RescueGroups files are recognised by their columns; any other CSV with a header row can be mapped. At most 10 MB and
            20,000 animals.
          </p>
        </div>
        {problem ? <FormAlert>{problem}</FormAlert> : null}
        {busy || (previewId !== null && !ready && preview.data?.status !== "failed") ? (
          <p role="status" className="text-stone-700">
            Reading the file…
          </p>
        ) : null}
      </section>

      {generic && file ? (
        <section className={`${panelClass} space-y-4`} aria-labelledby={`${fileId}-mapping`}>
          <h2 id={`${fileId}-mapping`} className="text-lg font-semibold">
            2. Match your columns to our fields
          </h2>
          <p className="text-stone-700">
            This file is not in a listing site&apos;s format. Say which of its columns holds each of our fields; leave the others out.
          </p>
          <TableScroll label="Column mapping, scrollable">
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-4">
                    Our field
                  </th>
                  <th scope="col" className="py-1">
                    Your column
                  </th>
                </tr>
              </thead>
              <tbody>
                {GENERIC_FIELDS.map((field) => (
                  <tr key={field} className="border-t border-stone-200">
                    <th scope="row" className="py-1 pr-4 font-normal">
                      <label htmlFor={`${fileId}-${field}`}>{FIELD_WORDS[field] ?? field}</label>
                    </th>
                    <td className="py-1">
                      <select
                        id={`${fileId}-${field}`}
                        className={inputClass(false)}
                        value={mapping[field] ?? ""}
                        onChange={(e) =>
                          setMapping((m) =>
                            e.target.value ? { ...m, [field]: e.target.value } : Object.fromEntries(Object.entries(m).filter(([k]) => k !== field)),
                          )
                        }
                      >
                        <option value="">(not in the file)</option>
                        {columns!.map((c) => (
                          <option key={c} value={c}>
                            {c}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <ValuesEditor text={valuesText} onChange={setValuesText} />
          <button
            type="button"
            className={primaryButtonClass}
            disabled={busy || !mapping.name || !mapping.species || Boolean(parseValues(valuesText).error)}
            onClick={() => void send(true, file, mapping)}
          >
            Preview with these columns
          </button>
        </section>
      ) : null}

      {ready && file ? <Preview report={ready} /> : null}
      {preview.data?.status === "failed" ? (
        <section className={`${panelClass} space-y-3`} aria-label="Preview">
          <FormAlert>The file could not be read to the end.</FormAlert>
          <Rejections report={preview.data} />
        </section>
      ) : null}

      {ready && file && runId === null ? (
        <button
          type="button"
          className={primaryButtonClass}
          disabled={busy || importable === 0}
          onClick={() => void send(false, file, generic ? mapping : undefined)}
        >
          Import {importable} {importable === 1 ? "animal" : "animals"}
        </button>
      ) : null}

      {run.data ? <Progress report={run.data} /> : null}

      <section className={`${panelClass} space-y-2`} aria-labelledby={`${fileId}-past`}>
        <h2 id={`${fileId}-past`} className="text-lg font-semibold">
          Past imports
        </h2>
        {past.error ? <FormAlert>{describeError(past.error)}</FormAlert> : null}
        {past.data && !past.data.length ? <p className="text-stone-700">No imports yet.</p> : null}
        {past.data?.length ? (
          <TableScroll label="Past imports, scrollable">
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  {["When", "File", "Format", "Kind", "Status", "Created", "Updated", "Unchanged", "Rejected"].map((h) => (
                    <th key={h} scope="col" className="py-1 pr-3">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {past.data.map((i) => (
                  <tr key={i.id} className="border-t border-stone-200">
                    <td className="py-1 pr-3">{new Date(i.createdAt).toLocaleString("en-US")}</td>
                    <td className="py-1 pr-3">{i.fileName ?? "—"}</td>
                    <td className="py-1 pr-3">{FORMAT_NAMES[i.format] ?? i.format}</td>
                    <td className="py-1 pr-3">{i.dryRun ? "Preview" : "Import"}</td>
                    <td className="py-1 pr-3">{i.status}</td>
                    <td className="py-1 pr-3">{i.counts.created}</td>
                    <td className="py-1 pr-3">{i.counts.updated}</td>
                    <td className="py-1 pr-3">{i.counts.unchanged}</td>
                    <td className="py-1 pr-3">{i.counts.rejected}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : null}
      </section>
    </div>
  );
}
