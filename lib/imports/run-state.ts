import type { Actor } from "@/lib/audit/schemas";
import type { AnimalPlan, StayColumns } from "@/lib/imports/history";
import type { PlannedRow } from "@/lib/imports/plan";
import * as queries from "@/lib/imports/queries";
import type { ImportIssue, ImportPreviewRow, ReportEntry, UnknownWords } from "@/lib/imports/schemas";
import type { UtilisationSource } from "@/lib/jobs/yield";
import { clipText } from "@/lib/listings/formats/cells";
import type { Tenancy } from "@/lib/organizations/tenancy";
import type { GuardOptions } from "@/lib/outbound/address-guard";
import type { FetchLimits } from "@/lib/outbound/fetch";
import type { PetView } from "@/lib/pets/present";
import type { LeavingCare } from "@/lib/pets/service";

// An import's run as it goes (lib/imports/run.ts): its options, its state,
// and what each planned row adds to the counts, the preview and the report,
// saved after each chunk.

const PREVIEW_ROWS = 20;
/** Entries kept in the report: every rejected row of a 20,000-row file, and then some. */
export const ISSUES_MAX = 25_000;
/** The longest one entry's message may be (each quotes at most 40 characters of a value). */
const MESSAGE_MAX = 500;

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

export interface State {
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

/** A generic file whose mapping has stay columns: each row is a stay, the rows of one externalId one animal's (issue 42). */
export interface HistoryMode {
  columns: StayColumns;
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

export function addIssues(state: State, issues: ReportEntry[]): void {
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
export async function save(state: State, end?: { status: "done" | "failed" }): Promise<void> {
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

export function reject(planned: PlannedRow, message: string, field: string | null = null): void {
  planned.action = "reject";
  planned.issues = [{ line: planned.row.line, field, message, result: "refused" }];
}

/** What a chunk does to one animal: its rows, the stays to write, and whether it leaves care (lib/imports/history.ts). */
export type Plan = AnimalPlan;

/** The rows of a plan that are kept (not refused). */
export const keptRows = (plan: Plan) => plan.rows.filter((p) => p.action !== "reject");

export function rejectPlan(plan: Plan, message: string, field: string | null = null): void {
  for (const p of keptRows(plan)) reject(p, message, field);
  plan.profile = null;
}

export function tally(state: State, plans: Plan[]): void {
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
