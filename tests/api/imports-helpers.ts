import fs from "node:fs";
import path from "node:path";
import { POST } from "@/app/v1/imports/route";
import { db } from "@/lib/db";
import type { Import, ImportIssue } from "@/lib/imports/schemas";
import { runImport } from "@/lib/imports/run";
import type { RunOptions } from "@/lib/imports/run-state";
import { call, expectJson, parseLink } from "./helpers";
import { closeApplicationsOfAnimalLeavingCare } from "@/lib/applications/service";

// Imports in tests: the file posted as a browser or curl would (multipart),
// then the queued `run-import` jobs run here, as the worker would run them.

export const fixture = (name: string): Buffer => fs.readFileSync(path.join(process.cwd(), "tests", "fixtures", "listings", name));

export interface Who {
  key?: string;
  headers?: Record<string, string>;
}

export function postImport(who: Who, file: Buffer | string, fields: Record<string, string> = {}, fileName = "pets.csv"): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([typeof file === "string" ? Buffer.from(file, "utf8") : new Uint8Array(file)]), fileName);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return call(POST, "/v1/imports", { method: "POST", key: who.key, headers: who.headers, body: form });
}

/** Photo hosts resolve to nothing unless a test says otherwise (no test reaches the internet). */
export const NO_DNS: RunOptions = {
  // As the worker runs imports (lib/worker/tasks.ts).
  leavingCare: closeApplicationsOfAnimalLeavingCare,
  guard: {
    resolve: async (host) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    },
  },
};

/** Runs every queued import job, oldest first, as the worker would; returns how many ran. */
export async function runImportJobs(options: RunOptions = NO_DNS): Promise<number> {
  const jobs = await db().$queryRaw<{ id: bigint; payload: { importId: string } }[]>`
    SELECT j.id, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = 'run-import' ORDER BY j.id`;
  for (const job of jobs) {
    await runImport(Number(job.payload.importId), options);
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE id = ${job.id}`;
  }
  return jobs.length;
}

/**
 * An import as GET /v1/imports/{id} shows it, with its whole report (every
 * page of GET /v1/imports/{id}/issues) as `report`, and as `errors` the
 * entries about refused rows and photos not stored, without their `result`
 * (what the report held before rows imported with a warning were in it).
 */
export type ImportReport = Import & { errors: Omit<ImportIssue, "result">[]; report: ImportIssue[] };

/** Posts a file (202), runs its job, and answers the finished import and its report. */
export async function importFile(who: Who, file: Buffer | string, fields: Record<string, string> = {}, options: RunOptions = NO_DNS): Promise<ImportReport> {
  const queued = await expectJson<Import>(await postImport(who, file, fields), 202);
  await runImportJobs(options);
  return readImport(who, queued.id);
}

export async function readImport(who: Who, id: number): Promise<ImportReport> {
  const { GET } = await import("@/app/v1/imports/[importId]/route");
  const found = await expectJson<Import>(await call(GET, `/v1/imports/${id}`, { key: who.key, headers: who.headers, params: { importId: String(id) } }));
  const report = await readIssues(who, id);
  const errors = report.filter((e) => e.result === "refused" || e.field === "photo").map(({ line, field, message }) => ({ line, field, message }));
  return { ...found, errors, report };
}

/** Every page of an import's report, following the Link header. */
export async function readIssues(who: Who, id: number, limit = 500): Promise<ImportIssue[]> {
  const { GET } = await import("@/app/v1/imports/[importId]/issues/route");
  const issues: ImportIssue[] = [];
  for (let path: string | undefined = `/v1/imports/${id}/issues?limit=${limit}`; path;) {
    const res = await call(GET, path, { key: who.key, headers: who.headers, params: { importId: String(id) } });
    const next = parseLink(res.headers.get("link")).next;
    issues.push(...(await expectJson<ImportIssue[]>(res)));
    path = next && new URL(next).pathname + new URL(next).search;
  }
  return issues;
}
