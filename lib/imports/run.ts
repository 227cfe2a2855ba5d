import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { now } from "@/lib/clock";
import { ApiError } from "@/lib/core/errors";
import type { ListingFormatName } from "@/lib/core/listing-sites";
import { applicationName } from "@/lib/db";
import { historyColumns, planAnimal, planAnimalInSteps, type FileStay } from "@/lib/imports/history";
import { planRow, type PlannedRow } from "@/lib/imports/plan";
import * as queries from "@/lib/imports/queries";
import { runPhotos } from "@/lib/imports/run-photos";
import { ISSUES_MAX, addIssues, save, tally, type HistoryMode, type Plan, type RunOptions, type State } from "@/lib/imports/run-state";
import { createAll, updateAll } from "@/lib/imports/run-writes";
import { UNKNOWN_WORDS_MAX, type MissingPolicy, type UnknownWords } from "@/lib/imports/schemas";
import { startOfDay } from "@/lib/imports/stay-times";
import { findStaysOf } from "@/lib/imports/stays";
import { yieldToRequests } from "@/lib/jobs/yield";
import { clipText, quoteCell } from "@/lib/listings/formats/cells";
import { ListingFileError } from "@/lib/listings/formats/errors";
import type { GenericMapping } from "@/lib/listings/formats/generic";
import { readListingFile } from "@/lib/listings/formats/read";
import { listingRowReader } from "@/lib/listings/formats/registry";
import type { ImportedRow, ListingRecord } from "@/lib/listings/formats/types";
import { logger } from "@/lib/log";
import { getOrganizationTimeZone } from "@/lib/organizations/service";
import { petView, toPet } from "@/lib/pets/present";
import { findAvailableAbsent, findCategories, findPetsByExternalIds } from "@/lib/pets/queries/lookups";
import { type Pet } from "@/lib/pets/schemas/pet";
import { updatePet } from "@/lib/pets/service";

// The background job of an import: the file's rows, then its photos.
// Rows are planned a chunk at a time against the organisation's animals
// (lib/imports/plan.ts) and, unless it is a dry run, applied through the one
// write path: new animals in one statement per chunk (the statement every
// create uses: version, audit record, change-feed event, webhooks), with
// their stays in the same transaction; changes through updatePet, and a
// history's changes of an animal (its stays, care and profile) as one change
// of it, planned again under its lock (changeWithStays). The audit records' request id names the import
// (`import-<id>`). After each chunk the counts are saved and the report's new
// entries appended (never the whole report again), so GET /v1/imports/{id}
// shows it moving. One run at a time holds the import's lease (the CLI and a
// server's worker may both be given it); running again after a crash does no
// harm: the second run finds the animals the first made, unchanged.
// Its options, state and report are lib/imports/run-state.ts, a chunk's
// writes lib/imports/run-writes.ts, the photos lib/imports/run-photos.ts.

/**
 * Rows read and written at a time: small enough that no step holds the
 * process (which also answers requests) for long.
 */
const CHUNK = 100;
/**
 * After each chunk, the job rests as long again as the chunk took times
 * this: the import takes a share of the machine, not all of it, so the
 * requests beside it keep their latency (the bench: npm run bench -- --import).
 */
const REST = 1;
/** The longest a chunk waits for a quieter moment (the process saturated with requests) before it goes anyway: the import always finishes. */
const YIELD_MAX_MS = 150;
/** The lease is renewed this often (it lasts queries.leaseSeconds()). */
const renewMs = () => (queries.leaseSeconds() * 1000) / 4;

export class ImportBusyError extends Error {
  constructor(id: number) {
    super(`import ${id} is being run by another process (it holds the import's lease)`);
    this.name = "ImportBusyError";
  }
}

function historyMode(mapping: GenericMapping | null): HistoryMode | null {
  const columns = historyColumns(mapping);
  return columns && { columns };
}

/** The file's words we could not read, by field, most frequent first. */
function unknownWordsOf(rows: readonly ImportedRow[]): UnknownWords {
  const byField = new Map<string, Map<string, number>>();
  for (const row of rows) {
    for (const { field, word } of row.unknownWords ?? []) {
      const words = byField.get(field) ?? new Map<string, number>();
      const shown = clipText(word, 100);
      words.set(shown, (words.get(shown) ?? 0) + 1);
      byField.set(field, words);
    }
  }
  return Object.fromEntries(
    [...byField].map(([field, words]) => [
      field,
      [...words]
        .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
        .slice(0, UNKNOWN_WORDS_MAX)
        .map(([word, count]) => ({ word, count })),
    ]),
  );
}

/**
 * A new animal of a file without stay columns: one stay, from its intake
 * date (that day in the organisation's zone) or now, ended by an adoption
 * now when the file says it was adopted (decision 023).
 */
function firstStay(p: PlannedRow, zone: string, at: Date): FileStay {
  const day = p.create?.intakeDate;
  const from = day ? startOfDay(day, zone) : at;
  const intakeAt = from > at ? at : from;
  const adopted = p.create?.status === "sold";
  return {
    intakeAt,
    intakeType: "otherIntake",
    intakeSubtype: null,
    outcomeAt: adopted ? at : null,
    outcomeType: adopted ? "adoption" : null,
    outcomeSubtype: null,
  };
}

/** A turn for the requests beside the job: a wait while the process is saturated (lib/jobs/yield.ts), else one turn of the event loop. */
async function pause(options: RunOptions): Promise<void> {
  if (options.load) await yieldToRequests(options.load, { maxMs: YIELD_MAX_MS, signal: options.signal });
  else await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Rows read a chunk at a time before any is planned (a history's animal may have rows anywhere in the file). */
const READ_CHUNK = 1_000;

async function runRows(
  state: State,
  records: readonly ListingRecord[],
  read: (record: ListingRecord) => ImportedRow,
  options: RunOptions,
  history: HistoryMode | null,
): Promise<{ planned: PlannedRow[]; rows: ImportedRow[] }> {
  const rows: ImportedRow[] = [];
  for (let start = 0; start < records.length; start += READ_CHUNK) {
    if (options.load) await yieldToRequests(options.load, { maxMs: YIELD_MAX_MS, signal: options.signal });
    rows.push(...records.slice(start, start + READ_CHUNK).map(read));
  }
  state.unknownWords = unknownWordsOf(rows);
  // A file's days are days in the organisation's time zone.
  const zone = await getOrganizationTimeZone(state.organizationId);
  // One animal's rows together: a history's by externalId (in the order of its first row); otherwise each row alone.
  let units: ImportedRow[][];
  if (history) {
    const byId = new Map<string, ImportedRow[]>();
    units = [];
    for (const row of rows) {
      if (row.externalId === null) units.push([row]);
      else {
        const unit = byId.get(row.externalId);
        if (unit) unit.push(row);
        else {
          const fresh = [row];
          byId.set(row.externalId, fresh);
          units.push(fresh);
        }
      }
    }
  } else units = rows.map((row) => [row]);

  const seen = new Map<string, number>();
  const all: PlannedRow[] = [];
  for (let next = 0; next < units.length;) {
    const chunk: ImportedRow[][] = [];
    for (let size = 0; next < units.length && (size === 0 || size + units[next]!.length <= CHUNK); next++) {
      chunk.push(units[next]!);
      size += units[next]!.length;
    }
    if (options.load) await yieldToRequests(options.load, { maxMs: YIELD_MAX_MS, signal: options.signal });
    if (state.lease.aborted) throw new queries.LeaseLostError(state.id);
    const began = performance.now();
    const chunkRows = chunk.flat();
    const ids = [...new Set(chunkRows.flatMap((r) => (r.externalId === null ? [] : [r.externalId])))];
    const existing = new Map<string, Pet>((await findPetsByExternalIds(state.organizationId, ids)).map((row) => [row.externalId!, toPet(row, state.view)]));
    const at = now();
    let plans: Plan[];
    if (history) {
      const recorded = await findStaysOf([...existing.values()].map((pet) => pet.id));
      plans = [];
      for (const unit of chunk) {
        const pet = unit[0]!.externalId === null ? undefined : existing.get(unit[0]!.externalId);
        const known = pet && recorded.get(pet.id);
        const animal = pet && known ? { pet, inCare: known.inCare, stays: known.stays } : undefined;
        // One animal's rows past a chunk are read a chunk at a time, yielding to requests between (and resting as between chunks).
        const plan =
          unit.length > CHUNK
            ? await planAnimalInSteps(unit, animal, history.columns, zone, at, CHUNK, () => pause(options))
            : planAnimal(unit, animal, history.columns, zone, at);
        // The animal's photos are its profile's (its latest row's): fetched once.
        for (const p of plan.rows) {
          if (p !== plan.profile) {
            p.row.photoUrls = [];
            p.row.photosLeftOut = 0;
          }
        }
        plans.push(plan);
      }
    } else {
      plans = chunk.map(([row]) => {
        const p = planRow(row!, existing, seen);
        const kept = p.action !== "reject";
        return { rows: [p], profile: kept ? p : null, insert: p.action === "create" ? [firstStay(p, zone, at)] : [], update: [], inCare: null };
      });
    }
    if (!state.dryRun) {
      // Nothing is written under a lease another run has taken over (this process stalled past its expiry).
      if (!(await queries.renewLease(state.id, state.owner))) throw new queries.LeaseLostError(state.id);
      await options.beforeWrites?.();
      await createAll(state, plans);
      await updateAll(state, plans, history, zone, at);
    }
    tally(state, plans);
    all.push(...plans.flatMap((plan) => plan.rows));
    await save(state);
    await sleep((performance.now() - began) * REST);
  }
  return { planned: all, rows };
}

/** `missing=adopted`: the organisation's available animals whose externalId the file does not name become sold. */
async function markAbsent(state: State, rows: ImportedRow[]): Promise<void> {
  const present = [...new Set(rows.flatMap((r) => (r.externalId === null ? [] : [r.externalId])))];
  const absent = await findAvailableAbsent(state.organizationId, present);
  if (state.dryRun) {
    state.progress.counts.adopted = absent.length;
    return;
  }
  for (const pet of absent) {
    try {
      await updatePet(pet.id, { status: "sold" }, { ...state.context, view: state.view });
      state.progress.counts.adopted++;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      // Line 0: not a row of the file, an animal it leaves out.
      addIssues(state, [
        {
          line: 0,
          field: "status",
          message: `Animal ${pet.id} (${quoteCell(pet.externalId ?? "")}) was not marked adopted: ${error.message}`,
          result: "refused",
        },
      ]);
    }
  }
}

/** Renews the run's lease while it runs; the signal aborts when another run has taken the import (the lease expired meanwhile). */
function holdLease(id: number, owner: string): { signal: AbortSignal; release(): void } {
  const lost = new AbortController();
  const timer = setInterval(() => {
    queries.renewLease(id, owner).then(
      (held) => held || lost.abort(),
      // The database away for a moment: the next renewal tries again (the lease outlasts three misses).
      () => {},
    );
  }, renewMs());
  timer.unref();
  return { signal: lost.signal, release: () => clearInterval(timer) };
}

/**
 * Runs an import (the `run-import` job, or the CLI). A finished import is
 * left alone; one another process is running (it holds the lease) throws
 * ImportBusyError: the queue retries the job later, when it finds the
 * import finished, or takes it over if that process died.
 */
export async function runImport(id: number, options: RunOptions): Promise<void> {
  const owner = `${applicationName()}#${randomUUID()}`;
  if (!(await queries.claimImport(id, owner))) {
    const status = await queries.statusOf(id);
    if (status === undefined || status === "done" || status === "failed") return;
    throw new ImportBusyError(id);
  }
  const lease = holdLease(id, owner);
  try {
    await run(id, owner, lease.signal, options);
  } finally {
    lease.release();
  }
}

async function run(id: number, owner: string, lease: AbortSignal, options: RunOptions): Promise<void> {
  const row = await queries.loadForRun(id);
  if (!row) return;
  const organizationId = Number(row.organizationId);
  const counts = queries.emptyCounts((row.counts as { rows?: number }).rows ?? 0);
  const state: State = {
    id,
    leavingCare: options.leavingCare,
    organizationId,
    dryRun: row.dryRun,
    owner,
    lease,
    progress: { status: "running", counts, photos: { ...queries.EMPTY_PHOTOS }, preview: [] },
    pending: [],
    issueTotal: row.issueCount,
    previewDirty: true,
    rowsLeft: 0,
    warningsLeftOut: 0,
    context: {
      actor: row.actorKind === "staff" ? { kind: "staff", id: Number(row.actorId), email: row.actorName ?? "" } : { kind: "api_key", id: Number(row.actorId) },
      requestId: `import-${id}`,
      tenancy: { kind: "organization", organizationId },
    },
    view: petView(new Date()),
  };
  try {
    if (!row.file) {
      // Its rows ran, and then the process running it stopped (the file is let go after the rows): what it did stays.
      state.progress.counts = row.counts as unknown as queries.Progress["counts"];
      state.progress.photos = { ...queries.EMPTY_PHOTOS, ...(row.photos as object) };
      state.previewDirty = false;
      addIssues(state, [
        {
          line: 0,
          field: null,
          message: "The import stopped after its rows (the server restarted while it fetched photos). Import the file again to fetch the photos not stored.",
          result: "refused",
        },
      ]);
      await save(state, { status: "failed" });
      return;
    }
    await queries.resetReport(id, owner);
    state.issueTotal = 0;
    const categories = (await findCategories()).map((c) => ({ id: Number(c.id), name: c.name }));
    const file = await readListingFile(row.file, { format: row.format as ListingFormatName });
    const read = listingRowReader(file, { categories, mapping: (row.mapping as GenericMapping | null) ?? undefined });
    counts.rows = file.records.length;
    state.rowsLeft = file.records.length;
    const { planned, rows } = await runRows(
      state,
      file.records,
      read,
      options,
      row.format === "generic" ? historyMode(row.mapping as GenericMapping | null) : null,
    );
    if (state.warningsLeftOut) {
      addIssues(state, [
        {
          line: 0,
          field: null,
          message: `${state.warningsLeftOut.toLocaleString("en-US")} more warnings of imported rows are not listed: a report keeps ${ISSUES_MAX.toLocaleString("en-US")} entries, with room for every refused row first.`,
          result: "importedWithWarning",
        },
      ]);
    }
    // The rows are in memory and done: the file is not needed any more.
    await queries.dropFile(id, owner);
    if ((row.missing as MissingPolicy) === "adopted") await markAbsent(state, rows);
    await runPhotos(state, planned, options);
    await save(state, { status: "done" });
  } catch (error) {
    if (error instanceof queries.LeaseLostError) {
      logger().warn({ importId: id }, "an import's run lost its lease to another run: it stops writing");
      return;
    }
    if (error instanceof ListingFileError) addIssues(state, [{ line: error.line ?? 0, field: null, message: error.message, result: "refused" }]);
    else {
      logger().error({ err: error, importId: id }, "an import failed");
      addIssues(state, [
        {
          line: 0,
          field: null,
          message: "The import stopped on an error on our side; the rows counted above were imported. Import the file again to finish it.",
          result: "refused",
        },
      ]);
    }
    await save(state, { status: "failed" }).catch((saving: unknown) => logger().error({ err: saving, importId: id }, "an import's failure could not be saved"));
  }
}
