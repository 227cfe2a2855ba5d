import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Actor } from "@/lib/audit/schemas";
import { now } from "@/lib/clock";
import { applicationName, db } from "@/lib/db";
import { ApiError } from "@/lib/core/errors";
import { historyColumns, planAnimal, planAnimalInSteps, type AnimalPlan, type FileStay, type StayColumns } from "@/lib/imports/history";
import { planRow, type PlannedRow } from "@/lib/imports/plan";
import { startOfDay } from "@/lib/imports/stay-times";
import { findStaysOf, insertStays, isStayConflict, updateStays } from "@/lib/imports/stays";
import { getOrganizationTimeZone } from "@/lib/organizations/service";
import * as queries from "@/lib/imports/queries";
import {
  PHOTO_FETCH_ALLOWANCE,
  UNKNOWN_WORDS_MAX,
  type ImportIssue,
  type ImportPreviewRow,
  type MissingPolicy,
  type ReportEntry,
  type UnknownWords,
} from "@/lib/imports/schemas";
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
import { petView, presentPet, toPet, type PetView } from "@/lib/pets/present";
import { createPetsWithRecords, isExternalIdTaken, type PetToCreate } from "@/lib/pets/queries/writes";
import { findCategories, findAvailableAbsent, findPetsByExternalIds } from "@/lib/pets/queries/lookups";
import { PHOTOS_MAX } from "@/lib/pets/schemas/fields";
import { type Pet } from "@/lib/pets/schemas/pet";
import { changeWithStays, updatePet, type LeavingCare } from "@/lib/pets/service";

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
/** The lease is renewed this often (it lasts queries.leaseSeconds()). */
const renewMs = () => (queries.leaseSeconds() * 1000) / 4;

export class ImportBusyError extends Error {
  constructor(id: number) {
    super(`import ${id} is being run by another process (it holds the import's lease)`);
    this.name = "ImportBusyError";
  }
}

export interface RunOptions {
  /** What an animal the file takes out of care does beyond it (its applications closed: lib/applications), handed in by the roots that run imports. */
  leavingCare: LeavingCare;
  /** How busy the process is with requests (the job runner's): each chunk first waits a moment while it is saturated. */
  load?: UtilisationSource;
  signal?: AbortSignal;
  /** For tests: resolve photo hosts another way, or other limits. */
  guard?: Partial<GuardOptions>;
  limits?: FetchLimits;
  photoAllowance?: { perImport: number; perDay: number };
  /** For tests: called once a chunk is planned, before it is written (another writer's change in between). */
  beforeWrites?: () => Promise<void>;
}

interface State {
  id: number;
  /** RunOptions.leavingCare. */
  leavingCare: LeavingCare;
  organizationId: number;
  dryRun: boolean;
  owner: string;
  /** Aborted when the lease is lost: another run has the import, this one writes nothing more. */
  lease: AbortSignal;
  progress: { status: "running"; counts: queries.Progress["counts"]; photos: queries.Progress["photos"]; preview: ImportPreviewRow[] };
  /** Entries found since the last save, and how many the report holds in all. */
  pending: ReportEntry[];
  issueTotal: number;
  /** The file's words we could not read (saved with the next progress once known). */
  unknownWords?: UnknownWords;
  /** Rows not yet planned: the report keeps room for each to be refused, so warnings never crowd a refusal out. */
  rowsLeft: number;
  /** Warnings of imported rows not kept for want of that room (said at the end). */
  warningsLeftOut: number;
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

function addIssues(state: State, issues: ReportEntry[]): void {
  const room = ISSUES_MAX - state.issueTotal;
  if (room <= 0) return;
  const kept = issues.slice(0, room).map((issue) => ({
    ...issue,
    field: issue.field && clipText(issue.field, 200),
    message: clipText(issue.message, MESSAGE_MAX),
    ...(issue.withRecords ? { withRecords: clipText(issue.withRecords, MESSAGE_MAX) } : {}),
  }));
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
    ...(state.unknownWords ? { unknownWords: state.unknownWords } : {}),
    issues,
    finished: end !== undefined,
  });
  state.previewDirty = false;
}

function reject(planned: PlannedRow, message: string, field: string | null = null): void {
  planned.action = "reject";
  planned.issues = [{ line: planned.row.line, field, message, result: "refused" }];
}

const auditActor = (actor: Actor) => ({ kind: actor.kind, id: actor.id, name: actor.kind === "staff" ? actor.email : null });

/** What a chunk does to one animal: its rows, the stays to write, and whether it leaves care (lib/imports/history.ts). */
type Plan = AnimalPlan;

/** The rows of a plan that are kept (not refused). */
const keptRows = (plan: Plan) => plan.rows.filter((p) => p.action !== "reject");

function rejectPlan(plan: Plan, message: string, field: string | null = null): void {
  for (const p of keptRows(plan)) reject(p, message, field);
  plan.profile = null;
}

/**
 * Creates the chunk's new animals in one statement, with their stays, in
 * one transaction; one by one when that fails (an externalId taken
 * meanwhile), so one animal cannot fail the others.
 */
async function createAll(state: State, plans: Plan[]): Promise<void> {
  const creates = plans.filter((plan) => plan.profile?.action === "create");
  if (!creates.length) return;
  // firstStay null: the import writes every new animal's stays itself (plan.insert), the file's or a default one.
  // Created as the stays leave it (out of care when the last ended other than by adoption): its creation commits, and is announced, in its final state.
  const item = (plan: Plan): PetToCreate => ({
    pet: { ...plan.profile!.create!, organizationId: state.organizationId, firstStay: null, inCare: plan.inCare !== false },
    actor: auditActor(state.context.actor),
    requestId: state.context.requestId,
  });
  const write = (batch: Plan[]) =>
    db().$transaction(
      async (tx) => {
        const rows = await createPetsWithRecords(batch.map(item), tx);
        const stays: { petId: number; stay: FileStay }[] = [];
        batch.forEach((plan, i) => {
          const row = rows[i];
          if (row) stays.push(...plan.insert.map((stay) => ({ petId: Number(row.id), stay })));
        });
        await insertStays(tx, state.organizationId, stays);
        return rows;
      },
      { timeout: 60_000 },
    );
  const take = (plan: Plan, row: { id: bigint } | null) => {
    if (row) for (const p of keptRows(plan)) p.petId = Number(row.id);
    else rejectPlan(plan, "names a category that no longer exists", "species");
  };
  try {
    const rows = await write(creates);
    creates.forEach((plan, i) => take(plan, rows[i]!));
  } catch (error) {
    if (creates.length === 1 && !isExternalIdTaken(error) && !isStayConflict(error)) throw error;
    for (const plan of creates) {
      try {
        take(plan, (await write([plan]))[0]!);
      } catch (one) {
        if (isStayConflict(one)) rejectPlan(plan, "its stays were refused by the database (they overlap, or two are open): send the file again");
        else if (!isExternalIdTaken(one)) throw one;
        else
          rejectPlan(
            plan,
            `${quoteCell(plan.profile!.row.externalId ?? "")} became another animal's ID while the file was imported; import the file again to update it`,
          );
      }
    }
  }
}

/**
 * Known animals. A listing file's row: its profile through updatePet. A
 * history's animal: its stays, care and profile as one change of the animal
 * (changeWithStays: its lock, version, audit record, event), planned again
 * from the animal and its stays as read under the lock, so a change staff
 * made since the chunk was planned is neither overwritten nor undone; what
 * the lock's plan refuses (a status an approved adoption holds) refuses the
 * whole change, and nothing of it is recorded.
 */
async function updateAll(state: State, plans: Plan[], history: HistoryMode | null, zone: string, at: Date): Promise<void> {
  for (const plan of plans) {
    const profile = plan.profile;
    if (!profile || profile.action === "create" || profile.petId === null) continue;
    const petId = profile.petId;
    if (!history) {
      if (!profile.patch) continue;
      try {
        await updatePet(petId, profile.patch, { ...state.context, view: state.view });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        reject(profile, error.message, error.details?.[0]?.field ?? null);
      }
      continue;
    }
    if (!plan.insert.length && !plan.update.length && plan.inCare === null && !profile.patch) continue;
    const unit = plan.rows.map((p) => p.row);
    try {
      await changeWithStays(
        petId,
        state.context,
        async (tx, was, context) => {
          const recorded = (await findStaysOf([petId], tx)).get(petId)?.stays ?? [];
          const locked = planAnimal(unit, { pet: presentPet(was, state.view), inCare: context.inCare, stays: recorded }, history.columns, zone, at);
          // The report says what the lock's plan did.
          Object.assign(plan, locked);
          if (!locked.profile) return null;
          await updateStays(tx, locked.update, state.organizationId, petId);
          await insertStays(
            tx,
            state.organizationId,
            locked.insert.map((stay) => ({ petId, stay })),
          );
          return { patch: locked.profile.patch ?? null, inCare: locked.inCare, wroteStays: locked.insert.length + locked.update.length > 0 };
        },
        state.leavingCare,
      );
    } catch (error) {
      if (isStayConflict(error)) {
        rejectPlan(plan, "the animal's stays changed while the file was imported, and the file's now overlap them: send the file again");
        continue;
      }
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      rejectPlan(plan, error.message, error.details?.[0]?.field ?? null);
    }
  }
}

function tally(state: State, plans: Plan[]): void {
  const { counts, preview } = state.progress;
  for (const p of plans.flatMap((plan) => plan.rows).sort((a, b) => a.row.line - b.row.line)) {
    if (p.action === "create") counts.created++;
    else if (p.action === "update") counts.updated++;
    else if (p.action === "unchanged") counts.unchanged++;
    else counts.rejected++;
    state.rowsLeft--;
    if (p.action === "reject") addIssues(state, p.issues);
    else {
      const warnings: ImportIssue[] = [
        ...p.row.warnings.map((w) => ({ line: w.line, field: w.field, message: w.message, result: "importedWithWarning" as const })),
        ...p.issues,
      ];
      // One entry kept back for the count of those left out.
      const room = Math.max(0, ISSUES_MAX - 1 - state.issueTotal - state.rowsLeft);
      addIssues(state, warnings.slice(0, room));
      state.warningsLeftOut += Math.max(0, warnings.length - room);
    }
    if (preview.length < PREVIEW_ROWS) {
      preview.push(previewOf(p));
      state.previewDirty = true;
    }
  }
}

/** A generic file whose mapping has stay columns: each row is a stay, the rows of one externalId one animal's (issue 42). */
interface HistoryMode {
  columns: StayColumns;
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
    addIssues(state, [{ line, field: "photo", message: `${photoWord(n)} left out: ${why}`, result: "importedWithWarning" }]);
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
          addIssues(state, [{ line: task.line, field: "photo", message: `${quoteCell(task.url, 100)}: ${reason}`, result: "importedWithWarning" }]);
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
