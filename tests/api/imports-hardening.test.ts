import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listRoute } from "@/app/v1/imports/route";
import { GET as issuesRoute } from "@/app/v1/imports/[importId]/issues/route";
import { GET as importRoute } from "@/app/v1/imports/[importId]/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import * as queries from "@/lib/imports/queries";
import { ImportBusyError, runImport } from "@/lib/imports/run";
import { CRONTAB, taskList } from "@/lib/worker/tasks";
import { REPORT_RETENTION_DAYS, type Import, type ImportIssue, type ImportSummary } from "@/lib/imports/schemas";
import { readCsv } from "@/lib/listings/formats/csv";
import { MAX_CELL_BYTES, MAX_FILE_COLUMNS } from "@/lib/listings/formats/errors";
import { PETFINDER_COLUMNS } from "@/lib/listings/formats/petfinder";
import { call, clearJobs, expectApiError, expectJson, newKey, newOrganization, parseLink } from "./helpers";
import { importFile, NO_DNS, postImport, readImport, readIssues, runImportJobs } from "./imports-helpers";

// Issue 40: one organisation's file can never take the service, or other
// organisations' background work, down with it. What a file may hold, what
// the request reads of it, how big a report and a list can grow, one import
// of an organisation at a time, one runner per import.

// The request's reading, watched: csv-parse's records, as readCsv gives them.
vi.mock("@/lib/listings/formats/csv", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/listings/formats/csv")>();
  return { ...real, readCsv: vi.fn(real.readCsv) };
});
// And what the job writes after each chunk.
vi.mock("@/lib/imports/queries", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/imports/queries")>();
  return { ...real, saveProgress: vi.fn(real.saveProgress) };
});

afterEach(() => {
  setClock();
  vi.mocked(queries.saveProgress).mockClear();
});

const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
/** A Petfinder file: the header and these rows (cells by column name). */
function petfinderFile(rows: Record<string, string>[]): string {
  return [PETFINDER_COLUMNS.join(","), ...rows.map((row) => PETFINDER_COLUMNS.map((c) => quote(row[c] ?? "")).join(","))].join("\n") + "\n";
}

async function orgWithKey(name: string) {
  const org = await newOrganization({ name });
  const { key } = await newKey(["pets:read", "pets:write"], name, { plan: "pro" }, org);
  return { org, key };
}

const importsOf = (organizationId: number) => db().import.count({ where: { organizationId: BigInt(organizationId) } });

describe("what a file may hold", () => {
  let who: { org: number; key: string };
  beforeAll(async () => {
    who = await orgWithKey("Wide Files Shelter");
  });

  it("a header of thousands of names with a few rows: 400 invalid_file naming the limit, nothing queued (it used to build a property per column per row)", async () => {
    const header = Array.from({ length: 5_000 }, (_, i) => `c${i}`).join(",");
    const file = [header, ...Array.from({ length: 300 }, () => "x")].join("\n");
    const forms: Record<string, string>[] = [{ format: "generic" }, {}, { mapping: JSON.stringify({ name: "c0", species: "c1" }) }];
    for (const fields of forms) {
      const error = await expectApiError(await postImport({ key: who.key }, file, fields), 400, "invalid_file");
      expect(error.message).toContain(`more than ${MAX_FILE_COLUMNS} values`);
      expect(error.details).toEqual([{ field: "file", issue: "too_many_columns" }]);
    }
    // A Petfinder header with extra names too.
    const extra = `${PETFINDER_COLUMNS.join(",")},${Array.from({ length: MAX_FILE_COLUMNS }, (_, i) => `x${i}`).join(",")}\n"1","1","Rex","","","F","M","Adult","","Dog"\n`;
    expect((await expectApiError(await postImport({ key: who.key }, extra), 400, "invalid_file")).details).toEqual([
      { field: "file", issue: "too_many_columns" },
    ]);
    expect(await importsOf(who.org)).toBe(0);
  });

  it("a value longer than 64 KB: 400 invalid_file with its line", async () => {
    const file = petfinderFile([
      { ID: "L-1", AnimalName: "Rex", Type: "Dog" },
      { ID: "L-2", AnimalName: "Max", Type: "Dog", Desc: "\u0007".repeat(MAX_CELL_BYTES + 1) },
    ]);
    const error = await expectApiError(await postImport({ key: who.key }, file), 400, "invalid_file");
    expect(error.message).toContain("the record starting on line 3 is longer than 64 KB");
    expect(error.details).toEqual([{ field: "file", issue: "cell_too_long" }]);
    expect(await importsOf(who.org)).toBe(0);
  });

  it("the request reads the head of the file and counts its rows; only the job parses the rows", async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ ID: `H-${i}`, AnimalName: `Head ${i}`, Type: i % 2 ? "Dog" : "Cat" }));
    const parsed = vi.mocked(readCsv);
    parsed.mockClear();
    const queued = await expectJson<Import>(await postImport({ key: who.key }, petfinderFile(rows), { dryRun: "true" }), 202);
    expect(queued.counts.rows).toBe(400);
    const records = await Promise.all(parsed.mock.results.map((r) => r.value as ReturnType<typeof readCsv>));
    expect(records.map((r) => r.rows.length)).toEqual([1]);
    parsed.mockClear();
    await runImportJobs();
    const inJob = await Promise.all(parsed.mock.results.map((r) => r.value as ReturnType<typeof readCsv>));
    expect(inJob.map((r) => r.rows.length)).toEqual([1, 401]);
    expect(await db().import.findUniqueOrThrow({ where: { id: BigInt(queued.id) }, select: { counts: true, status: true } })).toMatchObject({
      status: "done",
      counts: { rows: 400, created: 400 },
    });
  });
});

const bytesOf = async (res: Response) => (await res.arrayBuffer()).byteLength;

describe("reports: short excerpts, a page at a time, a light list", () => {
  it("a message quotes at most 40 characters of a cell, its control characters made harmless, whatever the cell holds", async () => {
    const { key } = await orgWithKey("Excerpt Shelter");
    const cell = "\u001b]0;owned\u0007".repeat(6_000);
    const report = await importFile(
      { key },
      petfinderFile([
        { ID: "X-1", AnimalName: "Rex", Type: cell },
        { ID: "X-2", AnimalName: "Max", Type: "Dog", Sex: `Q${"q".repeat(50_000)}` },
      ]),
      { dryRun: "true" },
    );
    expect(report.errors).toEqual([
      { line: 2, field: "Type", message: expect.stringMatching(/^"(\uFFFD\]0;owned\uFFFD){4}…" is not a species we have a category for/) },
      { line: 3, field: "Sex", message: `"Q${"q".repeat(39)}…" is not M or F` },
    ]);
    expect([...report.errors[0]!.message.matchAll(/\]0;/g)]).toHaveLength(4);
    // The preview shows a rejected row's values as excerpts, and not its fields.
    expect(report.preview[0]).toMatchObject({ line: 2, action: "reject", name: "Rex", species: expect.stringMatching(/^.{39}…$/su), fields: {} });
    const one = await call(importRoute, `/v1/imports/${report.id}`, { key, params: { importId: String(report.id) } });
    expect(await bytesOf(one)).toBeLessThan(5_000);
  });

  it("GET /v1/imports lists each import's status and counts only; GET /v1/imports/{id}/issues pages its report by the Link header, in line order", async () => {
    const { key } = await orgWithKey("Heavy Report Shelter");
    const rows = Array.from({ length: 450 }, (_, i) => ({ ID: `R-${i}`, AnimalName: `Rex ${i}`, Type: `Unicorn ${"x".repeat(2_000)} ${i}` }));
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await importFile({ key }, petfinderFile(rows), { dryRun: "true" })).id);

    const list = await call(listRoute, "/v1/imports?limit=100", { key });
    const size = (await list.clone().arrayBuffer()).byteLength;
    const imports = await expectJson<ImportSummary[]>(list);
    expect(imports.map((i) => i.id)).toEqual([...ids].reverse());
    for (const summary of imports) {
      expect(Object.keys(summary).sort()).toEqual(
        [
          "counts",
          "createdAt",
          "dryRun",
          "encoding",
          "fileName",
          "finishedAt",
          "format",
          "id",
          "issues",
          "missing",
          "organizationId",
          "photos",
          "reportExpiresAt",
          "startedAt",
          "status",
        ].sort(),
      );
      expect(summary).toMatchObject({ status: "done", issues: 450, counts: { rows: 450, rejected: 450 } });
    }
    expect(size).toBeLessThan(3 * 600);

    const one = await expectJson<Import>(await call(importRoute, `/v1/imports/${ids[0]}`, { key, params: { importId: String(ids[0]) } }));
    expect(one).not.toHaveProperty("errors");
    expect(one.preview).toHaveLength(20);

    const pages: ImportIssue[][] = [];
    for (let path: string | undefined = `/v1/imports/${ids[0]}/issues?limit=200`; path;) {
      const res = await call(issuesRoute, path, { key, params: { importId: String(ids[0]) } });
      expect(res.headers.get("cache-control")).toBe("no-store");
      const next = parseLink(res.headers.get("link")).next;
      pages.push(await expectJson<ImportIssue[]>(res));
      path = next && new URL(next).pathname + new URL(next).search;
    }
    expect(pages.map((p) => p.length)).toEqual([200, 200, 50]);
    const lines = pages.flat().map((issue) => issue.line);
    expect(lines).toEqual(rows.map((_, i) => i + 2));
    expect(Math.max(...pages.flat().map((issue) => issue.message.length))).toBeLessThan(200);
    expect(await readIssues({ key }, ids[0]!, 100)).toEqual(pages.flat());

    await expectApiError(
      await call(issuesRoute, `/v1/imports/${ids[0]}/issues?cursor=nonsense`, { key, params: { importId: String(ids[0]) } }),
      400,
      "invalid_cursor",
    );
    await expectApiError(
      await call(issuesRoute, `/v1/imports/${ids[0]}/issues?limit=501`, { key, params: { importId: String(ids[0]) } }),
      400,
      "invalid_query",
    );
    await expectApiError(await call(issuesRoute, "/v1/imports/987654321/issues", { key, params: { importId: "987654321" } }), 404, "not_found");
  });

  it(`a report is kept ${REPORT_RETENTION_DAYS} days after its import finished, then 410 and deleted; the import stays listed with its counts`, async () => {
    const { key } = await orgWithKey("Retention Shelter");
    const report = await importFile(
      { key },
      petfinderFile([
        { ID: "K-1", AnimalName: "Kept", Type: "Dog" },
        { ID: "K-2", AnimalName: "Gone", Type: "Unicorn" },
      ]),
      { dryRun: "true" },
    );
    const finished = Date.parse(report.finishedAt!);
    expect(report.reportExpiresAt).toBe(new Date(finished + REPORT_RETENTION_DAYS * 86_400_000).toISOString());
    expect(report.errors).toHaveLength(1);

    setClock(new Date(finished + (REPORT_RETENTION_DAYS - 1) * 86_400_000));
    expect(await readIssues({ key }, report.id)).toHaveLength(1);

    setClock(new Date(finished + REPORT_RETENTION_DAYS * 86_400_000 + 1_000));
    // Gone at once for its readers, whether or not the sweep has run yet.
    const gone = await expectApiError(
      await call(issuesRoute, `/v1/imports/${report.id}/issues`, { key, params: { importId: String(report.id) } }),
      410,
      "gone",
    );
    expect(gone.message).toContain(`deleted ${REPORT_RETENTION_DAYS} days after the import finished`);
    expect(await expectJson<Import>(await call(importRoute, `/v1/imports/${report.id}`, { key, params: { importId: String(report.id) } }))).toMatchObject({
      issues: 0,
      preview: [],
      counts: { rows: 2, created: 1, rejected: 1 },
    });
    // The job worker's hourly sweep deletes its rows (the task registered in the worker, and in its schedule).
    expect(CRONTAB).toMatch(/^\S+ \* \* \* \* sweep-import-reports$/m);
    const sweep = taskList({ owner: "retention-test", signal: new AbortController().signal, load: { current: () => 0, requests: () => 0, stop: () => {} } })[
      "sweep-import-reports"
    ]!;
    await sweep({}, {} as Parameters<typeof sweep>[1]);
    expect(await db().importIssue.count({ where: { importId: BigInt(report.id) } })).toBe(0);
    expect(await db().import.findUniqueOrThrow({ where: { id: BigInt(report.id) }, select: { preview: true, reportDeletedAt: true } })).toMatchObject({
      preview: [],
      reportDeletedAt: expect.any(Date),
    });
    const listed = await expectJson<ImportSummary[]>(await call(listRoute, "/v1/imports", { key }));
    expect(listed).toEqual([expect.objectContaining({ id: report.id, counts: expect.objectContaining({ rejected: 1 }), issues: 0 })]);
  });
});

describe("the job: what it keeps and writes", () => {
  it("after each chunk it appends the chunk's new report entries and saves the counts, never the whole report again", async () => {
    const { org, key } = await orgWithKey("Appending Shelter");
    const rows = Array.from({ length: 350 }, (_, i) => ({ ID: `A-${i}`, AnimalName: `Ann ${i}`, Type: i % 2 ? "Dog" : "Griffin" }));
    const report = await importFile({ key }, petfinderFile(rows), { dryRun: "true" });
    expect(report.counts).toMatchObject({ rows: 350, rejected: 175 });
    const saves = vi
      .mocked(queries.saveProgress)
      .mock.calls.filter(([id]) => id === report.id)
      .map(([, , progress]) => progress);
    // A save per chunk of 100 rows (and at the photos, and at the end), each with only what is new.
    expect(saves.map((p) => p.issues.length)).toEqual([50, 50, 50, 25, 0, 0]);
    expect(saves.map((p) => p.counts.rejected)).toEqual([50, 100, 150, 175, 175, 175]);
    expect(saves.slice(1).every((p) => p.preview === undefined)).toBe(true);
    const stored = await db().importIssue.findMany({ where: { importId: BigInt(report.id) }, orderBy: { id: "asc" }, select: { line: true } });
    expect(stored.map((i) => i.line)).toEqual(rows.flatMap((_, i) => (i % 2 ? [] : [i + 2])));
    expect(await db().import.findUniqueOrThrow({ where: { id: BigInt(report.id) }, select: { issueCount: true, file: true } })).toEqual({
      issueCount: 175,
      file: null,
    });
    expect(org).toBeGreaterThan(0);
  });

  it("the file is let go as soon as the rows have run, before the photos", async () => {
    const { key } = await orgWithKey("Let Go Shelter");
    const queued = await expectJson<Import>(
      await postImport({ key }, petfinderFile([{ ID: "F-1", AnimalName: "Fido", Type: "Dog", photo1: "https://photos.invalid/fido.jpg" }])),
      202,
    );
    const save = vi.mocked(queries.saveProgress);
    let fileAtPhotos: unknown = "not seen";
    save.mockImplementation(async (id, owner, progress) => {
      // The save that queues the photos: the rows are done.
      if (id === queued.id && progress.photos.queued > 0 && fileAtPhotos === "not seen") {
        fileAtPhotos = (await db().import.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { file: true } })).file;
      }
      const real = await vi.importActual<typeof import("@/lib/imports/queries")>("@/lib/imports/queries");
      return real.saveProgress(id, owner, progress);
    });
    try {
      await runImportJobs();
    } finally {
      save.mockReset();
      const real = await vi.importActual<typeof import("@/lib/imports/queries")>("@/lib/imports/queries");
      save.mockImplementation(real.saveProgress);
    }
    expect(fileAtPhotos).toBeNull();
    expect((await readImport({ key }, queued.id)).photos).toMatchObject({ queued: 1, failed: 1 });
  });
});

describe("one runner per import", () => {
  /** A generic file without an ID column: every row is a new animal, so a second runner would make each twice. */
  const noIds = (n: number) => ["Name,Kind", ...Array.from({ length: n }, (_, i) => `Pet ${i},Dog`)].join("\n") + "\n";
  const mapping = JSON.stringify({ name: "Name", species: "Kind" });

  it("two runners given the same import at once (the CLI and a server's worker): one runs it, the other is refused; each animal is created once", async () => {
    const { org, key } = await orgWithKey("Two Runners Shelter");
    const queued = await expectJson<Import>(await postImport({ key }, noIds(250), { mapping }), 202);
    const results = await Promise.allSettled([runImport(queued.id, NO_DNS), runImport(queued.id, NO_DNS)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: expect.any(ImportBusyError) });
    expect(await db().pet.count({ where: { organizationId: BigInt(org) } })).toBe(250);
    expect((await readImport({ key }, queued.id)).counts).toMatchObject({ created: 250 });
    // Done, the import is left alone by a late runner.
    await runImport(queued.id, NO_DNS);
    expect(await db().pet.count({ where: { organizationId: BigInt(org) } })).toBe(250);
    await clearJobs();
  });

  it("a runner that died leaves a lease that expires; then the retry takes the import over, its report started anew", async () => {
    const { org, key } = await orgWithKey("Dead Runner Shelter");
    const queued = await expectJson<Import>(await postImport({ key }, noIds(120), { mapping }), 202);
    await db()
      .$executeRaw`UPDATE imports SET status = 'running', lease_owner = 'petstore:1#dead', lease_expires_at = now() + interval '30 seconds' WHERE id = ${BigInt(queued.id)}`;
    await expect(runImport(queued.id, NO_DNS)).rejects.toBeInstanceOf(ImportBusyError);
    expect(await db().pet.count({ where: { organizationId: BigInt(org) } })).toBe(0);
    await db().$executeRaw`UPDATE imports SET lease_expires_at = now() - interval '1 second' WHERE id = ${BigInt(queued.id)}`;
    await runImport(queued.id, NO_DNS);
    expect(await readImport({ key }, queued.id)).toMatchObject({ status: "done", counts: { created: 120 } });
    await clearJobs();
  });

  it("a runner whose lease another run took over stops writing at its next save", async () => {
    const { org, key } = await orgWithKey("Taken Over Shelter");
    const queued = await expectJson<Import>(await postImport({ key }, noIds(300), { mapping }), 202);
    const save = vi.mocked(queries.saveProgress);
    const real = await vi.importActual<typeof import("@/lib/imports/queries")>("@/lib/imports/queries");
    save.mockImplementationOnce(async (id, owner, progress) => {
      await real.saveProgress(id, owner, progress);
      await db().$executeRaw`UPDATE imports SET lease_owner = 'petstore:2#other' WHERE id = ${BigInt(id)}`;
    });
    await runImport(queued.id, NO_DNS);
    // The first chunk was written; then the run found the import taken and stopped.
    expect(await db().pet.count({ where: { organizationId: BigInt(org) } })).toBe(100);
    expect(await db().import.findUniqueOrThrow({ where: { id: BigInt(queued.id) }, select: { status: true, leaseOwner: true } })).toEqual({
      status: "running",
      leaseOwner: "petstore:2#other",
    });
    await clearJobs();
    await db().$executeRaw`UPDATE imports SET status = 'failed' WHERE id = ${BigInt(queued.id)}`;
  });
});
