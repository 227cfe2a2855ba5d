import type { Actor } from "@/lib/audit/schemas";
import { ApiError } from "@/lib/http/errors";
import { planRow, type PlannedRow } from "@/lib/imports/plan";
import * as queries from "@/lib/imports/queries";
import type { ImportIssue, ImportPreviewRow, MissingPolicy } from "@/lib/imports/schemas";
import { readListingFile } from "@/lib/listings/formats/read";
import { listingRowReader } from "@/lib/listings/formats/registry";
import { setTimeout as sleep } from "node:timers/promises";
import type { GenericMapping } from "@/lib/listings/formats/generic";
import type { ImportedRow, ListingRecord } from "@/lib/listings/formats/types";
import type { ListingFormatName } from "@/lib/listings/sites";
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
import type { Pet } from "@/lib/pets/schemas";
import { updatePet } from "@/lib/pets/service";

// The background job of an import: the file's rows, then its photos.
// Rows are planned a chunk at a time against the organisation's animals
// (lib/imports/plan.ts) and, unless it is a dry run, applied through the one
// write path: new animals in one statement per chunk (the statement every
// create uses: version, audit record, change-feed event, webhooks), changes
// through updatePet. The audit records' request id names the import
// (`import-<id>`). Progress is saved after each chunk, so GET
// /v1/imports/{id} shows it moving. Running twice (a retried job) does no
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
/** Errors kept in the report: every rejected row of a 20,000-row file, and then some. */
const ERRORS_MAX = 25_000;

export class ImportBusyError extends Error {
  constructor(id: number) {
    super(`import ${id} waits for another import of the same organisation to finish`);
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
}

interface State {
  id: number;
  organizationId: number;
  dryRun: boolean;
  progress: queries.Progress;
  context: { actor: Actor; requestId: string; tenancy: Tenancy };
  view: PetView;
}

function previewOf(planned: PlannedRow): ImportPreviewRow {
  const fields = planned.action === "create" ? planned.create : planned.action === "update" ? planned.patch : planned.row.fields;
  return {
    line: planned.row.line,
    action: planned.action,
    externalId: planned.row.externalId,
    name: planned.row.fields.name ?? null,
    species: planned.row.species,
    petId: planned.petId,
    fields: JSON.parse(JSON.stringify(fields ?? {})) as Record<string, unknown>,
  };
}

function addIssues(state: State, issues: ImportIssue[]): void {
  const room = ERRORS_MAX - state.progress.errors.length;
  if (room > 0) state.progress.errors.push(...issues.slice(0, room));
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
        reject(p, `"${p.row.externalId}" became another animal's ID while the file was imported; import the file again to update it`, null);
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
    if (preview.length < PREVIEW_ROWS) preview.push(previewOf(p));
  }
}

async function runRows(state: State, records: readonly ListingRecord[], read: (record: ListingRecord) => ImportedRow, options: RunOptions): Promise<{ planned: PlannedRow[]; rows: ImportedRow[] }> {
  const seen = new Map<string, number>();
  const all: PlannedRow[] = [];
  const rows: ImportedRow[] = [];
  for (let start = 0; start < records.length; start += CHUNK) {
    if (options.load) await yieldToRequests(options.load, { maxMs: YIELD_MAX_MS, signal: options.signal });
    const began = performance.now();
    const chunk = records.slice(start, start + CHUNK).map(read);
    rows.push(...chunk);
    const ids = [...new Set(chunk.flatMap((r) => (r.externalId === null ? [] : [r.externalId])))];
    const existing = new Map<string, Pet>((await findPetsByExternalIds(state.organizationId, ids)).map((row) => [row.externalId!, toPet(row, state.view)]));
    const planned = chunk.map((row) => planRow(row, existing, seen));
    if (!state.dryRun) {
      await createAll(state, planned);
      await updateAll(state, planned);
    }
    tally(state, planned);
    all.push(...planned);
    await queries.saveProgress(state.id, state.progress);
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
      addIssues(state, [{ line: 0, field: "status", message: `Animal ${pet.id} ("${pet.externalId}") was not marked adopted: ${error.message}` }]);
    }
  }
}

interface PhotoTask {
  petId: number;
  line: number;
  url: string;
}

/** The photos to fetch: each row's addresses not fetched before for its animal. */
async function photoTasks(planned: PlannedRow[]): Promise<PhotoTask[]> {
  const withPhotos = planned.filter((p) => p.action !== "reject" && p.row.photoUrls.length);
  const sources = await photoSources(withPhotos.flatMap((p) => (p.petId === null ? [] : [p.petId])));
  return withPhotos.flatMap((p) => {
    const known = (p.petId !== null && sources.get(p.petId)) || new Set<string>();
    return [...new Set(p.row.photoUrls)].filter((url) => !known.has(url)).map((url) => ({ petId: p.petId ?? 0, line: p.row.line, url }));
  });
}

async function runPhotos(state: State, planned: PlannedRow[], options: RunOptions): Promise<void> {
  const tasks = await photoTasks(planned);
  const { photos } = state.progress;
  photos.queued = tasks.length;
  await queries.saveProgress(state.id, state.progress);
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
        try {
          const { bytes } = await fetchOutbound(task.url, guard, options.limits ?? PHOTO_FETCH_LIMITS);
          await addPhoto(task.petId, { bytes, alt: null, sourceUrl: task.url }, { ...state.context, view: state.view });
          photos.stored++;
        } catch (error) {
          // Whatever went wrong with one photo (the address, the server, the image), the animal stays imported.
          photos.failed++;
          const reason = error instanceof Error ? error.message : String(error);
          addIssues(state, [{ line: task.line, field: "photo", message: `${task.url}: ${reason}` }]);
        }
        if (++done % 10 === 0) await queries.saveProgress(state.id, state.progress);
      }
    }
  };
  await Promise.all(Array.from({ length: PHOTO_CONCURRENCY }, worker));
}

/**
 * Runs an import (the `run-import` job). A finished import is left alone; one
 * whose organisation is busy with another throws ImportBusyError, and the
 * queue retries it later.
 */
export async function runImport(id: number, options: RunOptions = {}): Promise<void> {
  const row = await queries.loadForRun(id);
  if (!row || row.status === "done" || row.status === "failed" || !row.file) return;
  const organizationId = Number(row.organizationId);
  if (!(await queries.claimImport(id, organizationId, !row.dryRun))) throw new ImportBusyError(id);
  const counts = queries.emptyCounts(0);
  const state: State = {
    id,
    organizationId,
    dryRun: row.dryRun,
    progress: { status: "running", counts, photos: { ...queries.EMPTY_PHOTOS }, errors: [], preview: [] },
    context: {
      actor: row.actorKind === "staff" ? { kind: "staff", id: Number(row.actorId), email: row.actorName ?? "" } : { kind: "api_key", id: Number(row.actorId) },
      requestId: `import-${id}`,
      tenancy: { kind: "organization", organizationId },
    },
    view: petView(new Date()),
  };
  try {
    const categories = (await findCategories()).map((c) => ({ id: Number(c.id), name: c.name }));
    const file = await readListingFile(row.file, { format: row.format as ListingFormatName });
    const read = listingRowReader(file, { categories, mapping: (row.mapping as GenericMapping | null) ?? undefined });
    counts.rows = file.records.length;
    const { planned, rows } = await runRows(state, file.records, read, options);
    if ((row.missing as MissingPolicy) === "adopted") await markAbsent(state, rows);
    await runPhotos(state, planned, options);
    await queries.saveProgress(id, { ...state.progress, status: "done", finished: true });
  } catch (error) {
    logger().error({ err: error, importId: id }, "an import failed");
    addIssues(state, [{ line: 0, field: null, message: "The import stopped on an error on our side; the rows counted above were imported. Import the file again to finish it." }]);
    await queries.saveProgress(id, { ...state.progress, status: "failed", finished: true });
  }
}
