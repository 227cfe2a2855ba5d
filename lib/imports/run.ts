import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Actor } from "@/lib/audit/schemas";
import { now } from "@/lib/clock";
import { applicationName } from "@/lib/db";
import { ApiError } from "@/lib/core/errors";
import { planRow, type PlannedRow } from "@/lib/imports/plan";
import * as queries from "@/lib/imports/queries";
import { PHOTO_FETCH_ALLOWANCE, type ImportIssue, type ImportPreviewRow, type MissingPolicy } from "@/lib/imports/schemas";
import { clipText, quoteCell } from "@/lib/listings/formats/cells";
import { ListingFileError } from "@/lib/listings/formats/errors";
import type { GenericMapping } from "@/lib/listings/formats/generic";
import { readListingFile } from "@/lib/listings/formats/read";
import { listingRowReader } from "@/lib/listings/formats/registry";
import type { ImportedRow, ListingRecord } from "@/lib/listings/formats/types";
import type { ListingFormatName } from "@/lib/core/listing-sites";
import { yieldToRequests, type UtilisationSource } from "@/lib/jobs/yield";
import { logger } from "@/lib/log";
import type { Tenancy } from "@/lib/organizations/tenancy";
import { fetchOutbound, PHOTO_FETCH_LIMITS, type FetchLimits } from "@/lib/outbound/fetch";
import type { GuardOptions } from "@/lib/outbound/address-guard";
import { outboundAllowPrivate } from "@/lib/outbound/switch";
import { photoSources } from "@/lib/photos/queries";
import { addPhoto } from "@/lib/photos/service";
import { petView, toPet, type PetView } from "@/lib/pets/present";
import { createPetsWithRecords, findCategories, findAvailableAbsent, findPetsByExternalIds, isExternalIdTaken, type PetToCreate } from "@/lib/pets/queries";
import { PHOTOS_MAX, type Pet } from "@/lib/pets/schemas";
import { updatePet } from "@/lib/pets/service";

// The background job of an import: the file's rows, then its photos.
// Rows are planned a chunk at a time against the organisation's animals
// (lib/imports/plan.ts) and, unless it is a dry run, applied through the one
// write path: new animals in one statement per chunk (the statement every
// create uses: version, audit record, change-feed event, webhooks), changes
// through updatePet. The audit records' request id names the import
// (`import-<id>`). After each chunk the counts are saved and the report's new
// entries appended (never the whole report again), so GET /v1/imports/{id}
// shows it moving. One run at a time holds the import's lease (the CLI and a
// server's worker may both be given it); running again after a crash does no
// harm: the second run finds the animals the first made, unchanged.

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
const PREVIEW_ROWS = 20;
const PHOTO_CONCURRENCY = 4;
/** Entries kept in the report: every rejected row of a 20,000-row file, and then some. */
const ISSUES_MAX = 25_000;
/** The longest one entry's message may be (each quotes at most 40 characters of a value). */
const MESSAGE_MAX = 500;
/** The lease is renewed this often (it lasts queries.LEASE_SECONDS). */
const RENEW_MS = (queries.LEASE_SECONDS * 1000) / 4;

export class ImportBusyError extends Error {
  constructor(id: number) {
    super(`import ${id} is being run by another process (it holds the import's lease)`);
    this.name = "ImportBusyError";
  }
}

export interface RunOptions {
  /** How busy the process is with requests (the job runner's): each chunk first waits a moment while it is saturated. */
  load?: UtilisationSource;
  signal?: AbortSignal;
  /** For tests: resolve photo hosts another way, or other limits. */
  guard?: Partial<GuardOptions>;
  limits?: FetchLimits;
  photoAllowance?: { perImport: number; perDay: number };
}

interface State {
  id: number;
  organizationId: number;
  dryRun: boolean;
  owner: string;
  /** Aborted when the lease is lost: another run has the import, this one writes nothing more. */
  lease: AbortSignal;
  progress: { status: "running"; counts: queries.Progress["counts"]; photos: queries.Progress["photos"]; preview: ImportPreviewRow[] };
  /** Entries found since the last save, and how many the report holds in all. */
  pending: ImportIssue[];
  issueTotal: number;
  previewDirty: boolean;
  context: { actor: Actor; requestId: string; tenancy: Tenancy };
  view: PetView;
}

function previewOf(planned: PlannedRow): ImportPreviewRow {
  const fields = planned.action === "create" ? planned.create : planned.action === "update" ? planned.patch : undefined;
  // A rejected row's values are the file's, unchecked: shown as excerpts, its fields left out.
  const shown = (text: string | null | undefined, max: number) => (text ? clipText(text, max) : null);
  return {
    line: planned.row.line,
    action: planned.action,
    externalId: shown(planned.row.externalId, 64),
    name: shown(planned.row.fields.name, 100),
    species: shown(planned.row.species, 40),
    petId: planned.petId,
    fields: JSON.parse(JSON.stringify(fields ?? {})) as Record<string, unknown>,
  };
}

function addIssues(state: State, issues: ImportIssue[]): void {
  const room = ISSUES_MAX - state.issueTotal;
  if (room <= 0) return;
  const kept = issues.slice(0, room).map((issue) => ({ ...issue, field: issue.field && clipText(issue.field, 200), message: clipText(issue.message, MESSAGE_MAX) }));
  state.pending.push(...kept);
  state.issueTotal += kept.length;
}

/** Saves the counts and appends the new entries; throws queries.LeaseLostError when another run has the import. */
async function save(state: State, end?: { status: "done" | "failed" }): Promise<void> {
  if (state.lease.aborted) throw new queries.LeaseLostError(state.id);
  const issues = state.pending;
  state.pending = [];
  await queries.saveProgress(state.id, state.owner, {
    status: end?.status ?? state.progress.status,
    counts: { ...state.progress.counts },
    photos: { ...state.progress.photos },
    ...(state.previewDirty ? { preview: state.progress.preview } : {}),
    issues,
    finished: end !== undefined,
  });
  state.previewDirty = false;
}

function reject(planned: PlannedRow, message: string, field: string | null = null): void {
  planned.action = "reject";
  planned.issues = [{ line: planned.row.line, field, message }];
}

const auditActor = (actor: Actor) => ({ kind: actor.kind, id: actor.id, name: actor.kind === "staff" ? actor.email : null });

/** Creates the chunk's new animals in one statement; one by one when that fails (an externalId taken meanwhile), so one row cannot fail the others. */
async function createAll(state: State, planned: PlannedRow[]): Promise<void> {
  const creates = planned.filter((p) => p.action === "create");
  if (!creates.length) return;
  const item = (p: PlannedRow): PetToCreate => ({ pet: { ...p.create!, organizationId: state.organizationId }, actor: auditActor(state.context.actor), requestId: state.context.requestId });
  const take = (p: PlannedRow, row: { id: bigint } | null) => {
    if (row) p.petId = Number(row.id);
    else reject(p, "names a category that no longer exists", "species");
  };
  try {
    const rows = await createPetsWithRecords(creates.map(item));
    creates.forEach((p, i) => take(p, rows[i]!));
  } catch (error) {
    if (creates.length === 1 && !isExternalIdTaken(error)) throw error;
    for (const p of creates) {
      try {
        take(p, (await createPetsWithRecords([item(p)]))[0]!);
      } catch (one) {
        if (!isExternalIdTaken(one)) throw one;
        reject(p, `${quoteCell(p.row.externalId ?? "")} became another animal's ID while the file was imported; import the file again to update it`, null);
      }
    }
  }
}

async function updateAll(state: State, planned: PlannedRow[]): Promise<void> {
  for (const p of planned) {
    if (p.action !== "update") continue;
    try {
      await updatePet(p.petId!, p.patch!, { ...state.context, view: state.view });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      reject(p, error.message, error.details?.[0]?.field ?? null);
    }
  }
}

function tally(state: State, planned: PlannedRow[]): void {
  const { counts, preview } = state.progress;
  for (const p of planned) {
    if (p.action === "create") counts.created++;
    else if (p.action === "update") counts.updated++;
    else if (p.action === "unchanged") counts.unchanged++;
    else {
      counts.rejected++;
      addIssues(state, p.issues);
    }
    if (preview.length < PREVIEW_ROWS) {
      preview.push(previewOf(p));
      state.previewDirty = true;
    }
  }
}

async function runRows(state: State, records: readonly ListingRecord[], read: (record: ListingRecord) => ImportedRow, options: RunOptions): Promise<{ planned: PlannedRow[]; rows: ImportedRow[] }> {
  const seen = new Map<string, number>();
  const all: PlannedRow[] = [];
  const rows: ImportedRow[] = [];
  for (let start = 0; start < records.length; start += CHUNK) {
    if (options.load) await yieldToRequests(options.load, { maxMs: YIELD_MAX_MS, signal: options.signal });
    if (state.lease.aborted) throw new queries.LeaseLostError(state.id);
    const began = performance.now();
    const chunk = records.slice(start, start + CHUNK).map(read);
    rows.push(...chunk);
    const ids = [...new Set(chunk.flatMap((r) => (r.externalId === null ? [] : [r.externalId])))];
    const existing = new Map<string, Pet>((await findPetsByExternalIds(state.organizationId, ids)).map((row) => [row.externalId!, toPet(row, state.view)]));
    const planned = chunk.map((row) => planRow(row, existing, seen));
    if (!state.dryRun) {
      // Nothing is written under a lease another run has taken over (this process stalled past its expiry).
      if (!(await queries.renewLease(state.id, state.owner))) throw new queries.LeaseLostError(state.id);
      await createAll(state, planned);
      await updateAll(state, planned);
    }
    tally(state, planned);
    all.push(...planned);
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
      addIssues(state, [{ line: 0, field: "status", message: `Animal ${pet.id} (${quoteCell(pet.externalId ?? "")}) was not marked adopted: ${error.message}` }]);
    }
  }
}

interface PhotoTask {
  petId: number;
  line: number;
  url: string;
}

const photoWord = (n: number) => `${n} photo address${n === 1 ? "" : "es"}`;

/**
 * The photos to fetch, checked before any is: each row's addresses (at most
 * 10, taken when the row was read) not fetched before for its animal, as
 * many as the animal still has room for; then at most the import's and the
 * organisation's day's allowance. Every address left out is counted
 * (`skipped`) and said in the report.
 */
async function photoTasks(state: State, planned: PlannedRow[], options: RunOptions): Promise<PhotoTask[]> {
  const { photos } = state.progress;
  const skip = (line: number, n: number, why: string) => {
    photos.skipped += n;
    addIssues(state, [{ line, field: "photo", message: `${photoWord(n)} left out: ${why}` }]);
  };
  const withPhotos = planned.filter((p) => p.action !== "reject" && (p.row.photoUrls.length || p.row.photosLeftOut));
  const held = await photoSources(withPhotos.flatMap((p) => (p.petId === null ? [] : [p.petId])));
  const tasks: PhotoTask[] = [];
  for (const p of withPhotos) {
    if (p.row.photosLeftOut) skip(p.row.line, p.row.photosLeftOut, `an animal holds at most ${PHOTOS_MAX} photos, and the row names more`);
    const pet = (p.petId !== null && held.get(p.petId)) || { count: 0, sources: new Set<string>() };
    const fresh = p.row.photoUrls.filter((url) => !pet.sources.has(url));
    const room = Math.max(0, PHOTOS_MAX - pet.count);
    if (fresh.length > room) skip(p.row.line, fresh.length - room, `the animal already has ${pet.count} of its ${PHOTOS_MAX} photos`);
    tasks.push(...fresh.slice(0, room).map((url) => ({ petId: p.petId ?? 0, line: p.row.line, url })));
  }
  const allowance = options.photoAllowance ?? PHOTO_FETCH_ALLOWANCE;
  const usedToday = await queries.photoFetchesSince(state.organizationId, new Date(now().getTime() - 86_400_000), state.id);
  const room = Math.max(0, Math.min(allowance.perImport, allowance.perDay - usedToday));
  if (tasks.length > room) {
    skip(
      0,
      tasks.length - room,
      `an import fetches at most ${allowance.perImport.toLocaleString("en-US")} photos, and an organisation ${allowance.perDay.toLocaleString("en-US")} a day; import the file again later to fetch them (photos already stored are not fetched again)`,
    );
  }
  return tasks.slice(0, room);
}

async function runPhotos(state: State, planned: PlannedRow[], options: RunOptions): Promise<void> {
  const tasks = await photoTasks(state, planned, options);
  const { photos } = state.progress;
  photos.queued = tasks.length;
  await save(state);
  if (state.dryRun || !tasks.length) return;
  const guard: GuardOptions = { allowPrivate: outboundAllowPrivate(), refusal: "photos are only fetched from public addresses", ...options.guard };
  // One animal's photos in the file's order (the first becomes the cover); animals side by side.
  const byPet = new Map<number, PhotoTask[]>();
  for (const task of tasks) byPet.set(task.petId, [...(byPet.get(task.petId) ?? []), task]);
  const queue = [...byPet.values()];
  let done = 0;
  const worker = async () => {
    for (let list = queue.shift(); list; list = queue.shift()) {
      for (const task of list) {
        if (state.lease.aborted) return;
        try {
          const { bytes } = await fetchOutbound(task.url, guard, options.limits ?? PHOTO_FETCH_LIMITS);
          await addPhoto(task.petId, { bytes, alt: null, sourceUrl: task.url }, { ...state.context, view: state.view });
          photos.stored++;
        } catch (error) {
          // Whatever went wrong with one photo (the address, the server, the image), the animal stays imported.
          photos.failed++;
          const reason = error instanceof Error ? error.message : String(error);
          addIssues(state, [{ line: task.line, field: "photo", message: `${quoteCell(task.url, 100)}: ${reason}` }]);
        }
        if (++done % 10 === 0) await save(state);
      }
    }
  };
  await Promise.all(Array.from({ length: PHOTO_CONCURRENCY }, worker));
  if (state.lease.aborted) throw new queries.LeaseLostError(state.id);
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
  }, RENEW_MS);
  timer.unref();
  return { signal: lost.signal, release: () => clearInterval(timer) };
}

/**
 * Runs an import (the `run-import` job, or the CLI). A finished import is
 * left alone; one another process is running (it holds the lease) throws
 * ImportBusyError: the queue retries the job later, when it finds the
 * import finished, or takes it over if that process died.
 */
export async function runImport(id: number, options: RunOptions = {}): Promise<void> {
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
    organizationId,
    dryRun: row.dryRun,
    owner,
    lease,
    progress: { status: "running", counts, photos: { ...queries.EMPTY_PHOTOS }, preview: [] },
    pending: [],
    issueTotal: row.issueCount,
    previewDirty: true,
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
      addIssues(state, [{ line: 0, field: null, message: "The import stopped after its rows (the server restarted while it fetched photos). Import the file again to fetch the photos not stored." }]);
      await save(state, { status: "failed" });
      return;
    }
    await queries.resetReport(id, owner);
    state.issueTotal = 0;
    const categories = (await findCategories()).map((c) => ({ id: Number(c.id), name: c.name }));
    const file = await readListingFile(row.file, { format: row.format as ListingFormatName });
    const read = listingRowReader(file, { categories, mapping: (row.mapping as GenericMapping | null) ?? undefined });
    counts.rows = file.records.length;
    const { planned, rows } = await runRows(state, file.records, read, options);
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
    if (error instanceof ListingFileError) addIssues(state, [{ line: error.line ?? 0, field: null, message: error.message }]);
    else {
      logger().error({ err: error, importId: id }, "an import failed");
      addIssues(state, [{ line: 0, field: null, message: "The import stopped on an error on our side; the rows counted above were imported. Import the file again to finish it." }]);
    }
    await save(state, { status: "failed" }).catch((saving: unknown) => logger().error({ err: saving, importId: id }, "an import's failure could not be saved"));
  }
}
