import { differences, refusals, rejected, wanted, type PlannedRow } from "@/lib/imports/plan";
import type { ImportIssue, ReportEntry } from "@/lib/imports/schemas";
import { instantOf, readStayTime, type StayTime } from "@/lib/imports/stay-times";
import { STAY_FIELDS, type GenericMapping } from "@/lib/listings/formats/generic";
import { DETAIL_WORDS, FOSTER_OUTCOME, FOSTER_RETURN } from "@/lib/listings/vocabulary/stay-types";
import type { ImportedRow } from "@/lib/listings/formats/types";
import type { IntakeDetail, IntakeType, OutcomeDetail, OutcomeType } from "@/lib/stays/schemas";
import { newPetSchema, type Pet, type PetPatch } from "@/lib/pets/schemas/pet";
import { afterLastStay, staysMeet } from "@/lib/stays/rules";
import { STAYS_PER_ANIMAL_MAX } from "@/lib/stays/schemas";

// A shelter's history in a generic file (issue 42): each row is one stay of
// an animal (intake, and outcome once it left), the rows with the same
// externalId the stays of one animal. What one animal's rows do, decided
// without writing (a dry run stops here), following decision 023: stays
// never overlap, an open stay is the last, and the animal's status and
// in_care follow from its last stay. Nothing here writes.

/**
 * A time in a foster home inside a stay (pet_placements, issue 50): the file's from an outcome
 * mapped to `foster` (an unnamed foster) until an intake mapped to `returnFromFoster`, or one
 * recorded here (`id`; `personId` when staff named the foster).
 */
export interface FilePlacement {
  id?: number;
  personId?: number | null;
  startAt: Date;
  endAt: Date | null;
  endReason: "returnedToShelter" | "movedToAnotherFoster" | "stayEnded" | "other" | null;
}

/** A stay as the file gives it, its times read in the organisation's zone. */
export interface FileStay {
  intakeAt: Date;
  intakeType: IntakeType;
  intakeSubtype: string | null;
  outcomeAt: Date | null;
  outcomeType: OutcomeType | null;
  outcomeSubtype: string | null;
  /** The matrix's 2021 details (seizedOrImpounded; a transfer's distance): absent is none. */
  intakeDetail?: IntakeDetail | null;
  outcomeDetail?: OutcomeDetail | null;
  /** Its times in foster homes, oldest first (none: absent or empty). */
  placements?: FilePlacement[];
  /** The row's intake is a return from a foster home (`returnFromFoster`): it ends a placement, it starts no stay (intakeType: the fallback, otherIntake). */
  returnFromFoster?: boolean;
}

/** A stay already recorded for the animal (pet_stays). */
export interface RecordedStay extends FileStay {
  id: number;
}

/** A generic file whose mapping has stay columns is a history: each row a stay, the rows of one externalId one animal's. Null: not a history. */
export function historyColumns(mapping: GenericMapping | null | undefined): StayColumns | null {
  if (!mapping || !STAY_FIELDS.some((field) => mapping[field]) || typeof mapping.intakeDate !== "string") return null;
  const column = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);
  return {
    intakeDate: mapping.intakeDate,
    intakeType: column(mapping.intakeType),
    outcomeDate: column(mapping.outcomeDate),
    outcomeType: column(mapping.outcomeType),
  };
}

/** The file's columns, named in the report's entries. */
export interface StayColumns {
  intakeDate: string;
  intakeType?: string;
  outcomeDate?: string;
  outcomeType?: string;
}

export interface AnimalPlan {
  /** Every row of the animal, as planned (rejected ones included). */
  rows: PlannedRow[];
  /** The row the profile comes from (its latest stay), when any row is kept. */
  profile: PlannedRow | null;
  insert: FileStay[];
  update: { id: number; stay: FileStay }[];
  /** What in_care becomes; null when it does not change. */
  inCare: boolean | null;
}

/** A planned row of a history file: its stay (when kept) and its report entries beyond refusals. */
export type HistoryRow = PlannedRow & { stay?: FileStay };

const END = Number.POSITIVE_INFINITY;
const endOf = (s: Pick<FileStay, "outcomeAt">) => s.outcomeAt?.getTime() ?? END;
/** As the database's pet_stays_no_overlap (lib/stays/rules.ts): an intake on the day of the last outcome is no overlap; a stay of no length stands at another's edge, never inside it. */
const overlaps = staysMeet;

/** A stay's dates as the report names them: the file's days (or times), "open" without an outcome. */
const spanFormats = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

function span(s: FileStay, zone: string): string {
  let formats = spanFormats.get(zone);
  if (!formats) {
    formats = {
      day: new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }),
      time: new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
    };
    spanFormats.set(zone, formats);
  }
  const { day: dayFormat, time: timeFormat } = formats;
  const day = (d: Date) => {
    const local = dayFormat.format(d);
    const time = timeFormat.format(d);
    return time === "00:00" ? local : `${local} ${time}`;
  };
  return `${day(s.intakeAt)} to ${s.outcomeAt ? day(s.outcomeAt) : "now (no outcome)"}`;
}

const time = (d: Date | null) => d?.getTime() ?? null;

function samePlacements(a: readonly FilePlacement[] = [], b: readonly FilePlacement[] = []): boolean {
  return (
    a.length === b.length &&
    a.every((p, i) => time(p.startAt) === time(b[i]!.startAt) && time(p.endAt) === time(b[i]!.endAt) && p.endReason === b[i]!.endReason)
  );
}

function sameStay(a: FileStay, b: FileStay): boolean {
  return (
    samePlacements(a.placements, b.placements) &&
    a.intakeAt.getTime() === b.intakeAt.getTime() &&
    a.intakeType === b.intakeType &&
    a.intakeSubtype === b.intakeSubtype &&
    (a.outcomeAt?.getTime() ?? null) === (b.outcomeAt?.getTime() ?? null) &&
    a.outcomeType === b.outcomeType &&
    a.outcomeSubtype === b.outcomeSubtype &&
    (a.intakeDetail ?? null) === (b.intakeDetail ?? null) &&
    (a.outcomeDetail ?? null) === (b.outcomeDetail ?? null)
  );
}

const refuse = (row: ImportedRow, field: string | null, message: string): ImportIssue => ({ line: row.line, field, message, result: "refused" });

/** The row's stay, or why it has none that can be kept. */
function readStay(row: ImportedRow, columns: StayColumns, zone: string, now: Date): FileStay | ImportIssue {
  const cells = row.stay;
  const time = (cell: string | null | undefined, column: string): StayTime | ImportIssue | null => {
    const read = readStayTime(cell ?? "");
    if (read === undefined) return refuse(row, column, `is not a date (M/D/YYYY, YYYY-MM-DD or an RFC 3339 time such as 2021-06-01T14:30:00-07:00)`);
    return read;
  };
  const intake = time(cells?.intakeDate, columns.intakeDate);
  if (intake === null) return refuse(row, columns.intakeDate, "is empty: each row is a stay, which starts at its intake");
  if ("message" in intake) return intake;
  const outcome = columns.outcomeDate ? time(cells?.outcomeDate, columns.outcomeDate) : null;
  if (outcome && "message" in outcome) return outcome;
  const outcomeType = (cells?.outcomeType ?? null) as OutcomeType | typeof FOSTER_OUTCOME | null;
  if (outcome && !outcomeType) return refuse(row, columns.outcomeType ?? null, "is empty, but the row has an outcome date: an outcome has a type");
  if (!outcome && outcomeType) return refuse(row, columns.outcomeDate ?? null, `is empty, but the row has the outcome ${outcomeType}: an outcome has a date`);
  const returnFromFoster = cells?.intakeType === FOSTER_RETURN;
  // A 2021 row (seizedOrImpounded, a transfer by distance) is today's type with its detail.
  const intakeWord = DETAIL_WORDS[cells?.intakeType as keyof typeof DETAIL_WORDS] as { type: IntakeType; detail: IntakeDetail } | undefined;
  const outcomeWord = DETAIL_WORDS[outcomeType as keyof typeof DETAIL_WORDS] as { type: OutcomeType; detail: OutcomeDetail } | undefined;
  const stay: FileStay = {
    intakeAt: instantOf(intake, zone),
    // A return from a foster home that finds no placement to end is another intake (planRead).
    intakeType: returnFromFoster ? "otherIntake" : (intakeWord?.type ?? ((cells?.intakeType ?? "otherIntake") as IntakeType)),
    intakeSubtype: cells?.intakeSubtype ?? null,
    outcomeAt: outcome ? instantOf(outcome, zone) : null,
    outcomeType: outcome ? (outcomeWord?.type ?? (outcomeType as OutcomeType)) : null,
    outcomeSubtype: outcome ? (cells?.outcomeSubtype ?? null) : null,
    ...(intakeWord ? { intakeDetail: intakeWord.detail } : {}),
    ...(outcome && outcomeWord ? { outcomeDetail: outcomeWord.detail } : {}),
    ...(returnFromFoster ? { returnFromFoster } : {}),
  };
  if (stay.intakeAt > now) return refuse(row, columns.intakeDate, "is in the future: a stay is recorded once it has begun");
  if (stay.outcomeAt && stay.outcomeAt > now) return refuse(row, columns.outcomeDate ?? null, "is in the future: an outcome is recorded once it has happened");
  if (stay.outcomeAt && stay.outcomeAt < stay.intakeAt)
    return refuse(row, columns.outcomeDate ?? null, `is before the intake (${span(stay, zone)}): an animal leaves after it came in`);
  // A trip to a foster home is no outcome (Shelter Animals Count: the animal is still in the organisation's care): the stay goes on, and a placement with an unnamed foster begins then.
  if (stay.outcomeType === (FOSTER_OUTCOME as string)) {
    return { ...stay, outcomeAt: null, outcomeType: null, outcomeSubtype: null, placements: [{ startAt: stay.outcomeAt!, endAt: null, endReason: null }] };
  }
  return stay;
}

const openPlacement = (s: FileStay) => {
  const last = s.placements?.at(-1);
  return last && last.endAt === null ? last : undefined;
};

/** `stay`'s placements up to `until` ended at `at` as a return to the shelter, then `next`'s (the returning row's own trip, when its outcome is `foster`). */
function returned(stay: FileStay, until: FilePlacement, at: Date, next: FileStay): FileStay {
  const kept = stay.placements!.slice(0, stay.placements!.indexOf(until));
  return {
    ...stay,
    outcomeAt: next.outcomeAt,
    outcomeType: next.outcomeType,
    outcomeSubtype: next.outcomeSubtype,
    outcomeDetail: next.outcomeDetail ?? null,
    placements: [...kept, { ...until, endAt: at, endReason: "returnedToShelter" }, ...(next.placements ?? [])],
  };
}

/**
 * The rows mapped to `returnFromFoster` (issue 50): each ends the placement it returns from,
 * and its outcome (if any) is the outcome of the stay that goes on; it starts no stay. The
 * placement is the file's (the animal's previous row went to a foster home) or one recorded
 * here: open in the animal's open stay, or already ended at this very time (the same file
 * again). Without one, the row is another intake (otherIntake), with a warning. Returns the
 * candidates left, the rows each kept one absorbed, and the warnings.
 */
function foldReturns(
  candidates: { row: ImportedRow; stay: FileStay }[],
  recorded: readonly RecordedStay[],
  warnings: Map<ImportedRow, ReportEntry[]>,
): { row: ImportedRow; stay: FileStay; absorbed: ImportedRow[] }[] {
  const out: { row: ImportedRow; stay: FileStay; absorbed: ImportedRow[] }[] = [];
  for (const c of candidates) {
    if (!c.stay.returnFromFoster) {
      out.push({ ...c, absorbed: [] });
      continue;
    }
    const at = c.stay.intakeAt;
    const previous = out.at(-1);
    const trip = previous && previous.stay.outcomeAt === null ? openPlacement(previous.stay) : undefined;
    if (previous && trip && trip.startAt <= at) {
      previous.stay = returned(previous.stay, trip, at, c.stay);
      previous.absorbed.push(c.row);
      continue;
    }
    // A placement recorded here: ended at this time already (the same row imported before), or still open in the open stay.
    let found: { stay: RecordedStay; trip: FilePlacement } | undefined;
    for (const r of recorded) {
      const ended = r.placements?.find((p) => p.endAt?.getTime() === at.getTime() && p.endReason === "returnedToShelter");
      const open = r.outcomeAt === null ? openPlacement(r) : undefined;
      if (ended) found = { stay: r, trip: ended };
      else if (open && open.startAt <= at) found = { stay: r, trip: open };
    }
    if (found && !out.some((o) => o.stay.intakeAt.getTime() === found.stay.intakeAt.getTime())) {
      const stay: FileStay = { ...found.stay };
      delete (stay as Partial<RecordedStay>).id;
      out.push({ row: c.row, stay: returned(stay, found.trip, at, c.stay), absorbed: [] });
      continue;
    }
    const intake: FileStay = { ...c.stay };
    delete intake.returnFromFoster;
    out.push({ row: c.row, stay: intake, absorbed: [] });
    warnings.set(c.row, [
      ...(warnings.get(c.row) ?? []),
      {
        line: c.row.line,
        field: null,
        message: "is a return from a foster home, but the animal was in none then (here or in the file): imported as another intake (otherIntake)",
        result: "importedWithWarning",
      },
    ]);
  }
  out.sort(byIntake);
  return out;
}

/**
 * A recorded stay's placements, with the file's: a trip of the file is the recorded one that
 * starts at the same instant (a re-import keeps its row), else a new one. A recorded trip is
 * never taken back by a file that does not name it, and one ended here is not reopened by a
 * file that has it open (the file was written before: as with outcomes). An outcome ends the
 * placement still open at its instant (stayEnded), as every outcome does.
 */
function withPlacements(stay: FileStay, recorded: RecordedStay | undefined): FileStay {
  const recordedPlacements = recorded?.placements ?? [];
  let placements: FilePlacement[];
  if (!stay.placements?.length) placements = recordedPlacements;
  else {
    const ours = new Set(stay.placements.flatMap((p) => (p.id === undefined ? [] : [p.id])));
    const byStart = new Map(recordedPlacements.filter((p) => !ours.has(p.id!)).map((p) => [p.startAt.getTime(), p]));
    const file = stay.placements.map((p) => {
      const same = p.id === undefined ? byStart.get(p.startAt.getTime()) : undefined;
      if (!same) return p;
      byStart.delete(p.startAt.getTime());
      return p.endAt === null && same.endAt !== null ? same : { ...p, id: same.id, personId: same.personId ?? null };
    });
    placements = [...byStart.values(), ...file].sort((a, b) => a.startAt.getTime() - b.startAt.getTime());
  }
  const last = placements.at(-1);
  if (stay.outcomeAt && last && last.endAt === null) placements = [...placements.slice(0, -1), { ...last, endAt: stay.outcomeAt, endReason: "stayEnded" }];
  return placements.length ? { ...stay, placements } : stay;
}

/** Candidates by intake, ended before open, then in file order. */
function byIntake(a: { stay: FileStay; row: ImportedRow }, b: { stay: FileStay; row: ImportedRow }): number {
  return a.stay.intakeAt.getTime() - b.stay.intakeAt.getTime() || endOf(a.stay) - endOf(b.stay) || a.row.line - b.row.line;
}

const laterStay = (a: FileStay, b: FileStay) => a.intakeAt.getTime() - b.intakeAt.getTime() || endOf(a) - endOf(b);

/** What reading an animal's rows found: the rows refused for their own errors, and the stays of the others. */
interface ReadRows {
  planned: Map<ImportedRow, HistoryRow>;
  candidates: { row: ImportedRow; stay: FileStay }[];
}

type Existing = { pet: Pet; inCare: boolean; stays: readonly RecordedStay[] } | undefined;

/** The per-row work of planAnimal (each row's fields and stay read and checked), for `rows` into `into`. */
function readRows(rows: readonly ImportedRow[], pet: Pet | undefined, columns: StayColumns, zone: string, now: Date, into: ReadRows): void {
  for (const row of rows) {
    if (row.errors.length) {
      into.planned.set(row, rejected(row, refusals(row), pet?.id ?? null));
      continue;
    }
    const fields = wanted(row, pet !== undefined);
    if (!fields.ok) {
      into.planned.set(
        row,
        rejected(
          row,
          fields.issues.map((i) => ({ ...i, result: "refused" as const })),
          pet?.id ?? null,
        ),
      );
      continue;
    }
    const stay = readStay(row, columns, zone, now);
    if ("message" in stay) into.planned.set(row, rejected(row, [stay], pet?.id ?? null));
    else into.candidates.push({ row, stay });
  }
}

/**
 * One animal's rows (file order), against the animal (when it exists) and
 * its recorded stays. A row is refused for its own errors, a stay that
 * cannot be read, one that overlaps another of the animal (both dates named;
 * the later one is refused, the others still import), or an open stay that
 * is not the last. A recorded stay is the file's when it has the same
 * intake time: it is updated when the row changed, left alone otherwise,
 * so the same file twice changes nothing. An outcome recorded here is never
 * taken back by a row without one (the file was written before it). Past
 * STAYS_PER_ANIMAL_MAX stays, the file's oldest new ones are refused.
 * Linear in rows and stays (after sorting them): a unit of any size costs
 * no more than its rows.
 */
export function planAnimal(rows: readonly ImportedRow[], existing: Existing, columns: StayColumns, zone: string, now: Date): AnimalPlan {
  const read: ReadRows = { planned: new Map(), candidates: [] };
  readRows(rows, existing?.pet, columns, zone, now, read);
  return planRead(rows, read, existing, zone);
}

/**
 * planAnimal for a big unit (an animal with thousands of rows): its rows
 * read `step` at a time, with `pause` (the job's yield to requests) between,
 * so no one animal holds the process for long.
 */
export async function planAnimalInSteps(
  rows: readonly ImportedRow[],
  existing: Existing,
  columns: StayColumns,
  zone: string,
  now: Date,
  step: number,
  pause: () => Promise<void>,
): Promise<AnimalPlan> {
  const read: ReadRows = { planned: new Map(), candidates: [] };
  for (let start = 0; start < rows.length; start += step) {
    if (start > 0) await pause();
    readRows(rows.slice(start, start + step), existing?.pet, columns, zone, now, read);
  }
  if (rows.length > step) await pause();
  return planRead(rows, read, existing, zone);
}

function planRead(rows: readonly ImportedRow[], { planned, candidates: read }: ReadRows, existing: Existing, zone: string): AnimalPlan {
  const pet = existing?.pet;
  const recorded = [...(existing?.stays ?? [])].sort(laterStay);
  read.sort(byIntake);
  const warnings = new Map<ImportedRow, ReportEntry[]>();
  // Each row's own intake, before the returns from foster homes join the stay that goes on (they end its placement, they begin nothing).
  const readStayOf = new Map(read.map((c) => [c.row, c.stay.intakeAt.getTime()]));
  const candidates = foldReturns(read, recorded, warnings);

  // The recorded stays the file's rows are (same intake time, in order), and the others, which the file must not overlap.
  const byIntakeTime = new Map<number, RecordedStay[]>();
  for (const s of recorded) {
    const same = byIntakeTime.get(s.intakeAt.getTime());
    if (same) same.push(s);
    else byIntakeTime.set(s.intakeAt.getTime(), [s]);
  }
  const matched = new Map<ImportedRow, RecordedStay>();
  for (const c of candidates) {
    const first = byIntakeTime.get(c.stay.intakeAt.getTime())?.shift();
    if (!first) continue;
    matched.set(c.row, first);
    // An outcome recorded here is newer than a file that has none for the stay: kept.
    if (first.outcomeAt !== null && c.stay.outcomeAt === null) {
      c.stay = {
        ...c.stay,
        outcomeAt: first.outcomeAt,
        outcomeType: first.outcomeType,
        outcomeSubtype: first.outcomeSubtype,
        outcomeDetail: first.outcomeDetail ?? null,
      };
      warnings.set(c.row, [
        ...(warnings.get(c.row) ?? []),
        {
          line: c.row.line,
          field: null,
          message: "has no outcome, but the stay's outcome is recorded here: the recorded outcome is kept",
          withRecords: `has no outcome, but the stay's outcome is recorded here (${first.outcomeType}, ${span(first, zone)}): the recorded outcome is kept`,
          result: "importedWithWarning",
        },
      ]);
    }
  }
  const matchedIds = new Set([...matched.values()].map((s) => s.id));
  const others = recorded.filter((s) => !matchedIds.has(s.id));
  // Recorded stays never overlap one another (the database's constraint), so
  // sorted by intake they are sorted by end too (a zero-length stay overlaps
  // nothing and is left out): the candidates, by intake, walk them once.
  const walls = others.filter((s) => endOf(s) > s.intakeAt.getTime());
  let wall = 0;

  let kept: typeof candidates = [];
  const drop = (c: { row: ImportedRow; absorbed: ImportedRow[] }, message: string, withRecords?: string) => {
    planned.set(c.row, rejected(c.row, [{ ...refuse(c.row, null, message), ...(withRecords ? { withRecords } : {}) }], pet?.id ?? null));
    // The returns it took in go with it: they returned to a stay that is not imported.
    for (const r of c.absorbed)
      planned.set(r, rejected(r, [refuse(r, null, `returns from the foster home of the stay on line ${c.row.line}, which is refused`)], pet?.id ?? null));
    matched.delete(c.row);
    warnings.delete(c.row);
  };
  for (const c of candidates) {
    const from = c.stay.intakeAt.getTime();
    while (wall < walls.length && endOf(walls[wall]!) <= from) wall++;
    const next = walls[wall];
    const recordedOverlap = next && next.intakeAt.getTime() < endOf(c.stay) && endOf(c.stay) > from ? next : undefined;
    if (recordedOverlap) {
      drop(
        c,
        `its stay (${span(c.stay, zone)}) overlaps a stay of the animal recorded here: an animal is in one stay at a time`,
        `its stay (${span(c.stay, zone)}) overlaps the animal's stay from ${span(recordedOverlap, zone)}, recorded here: an animal is in one stay at a time`,
      );
      continue;
    }
    let last = kept.at(-1);
    // An open stay is the animal's last: one followed by another stay is refused, and the later one compared with the stay before it.
    while (last && last.stay.outcomeAt === null) {
      kept.pop();
      drop(
        last,
        `its stay (${span(last.stay, zone)}) has no outcome, but the animal has a later stay from ${span(c.stay, zone)} on line ${c.row.line}: only the last stay may be open`,
      );
      last = kept.at(-1);
    }
    if (last && overlaps(last.stay, c.stay)) {
      drop(c, `its stay (${span(c.stay, zone)}) overlaps the stay from ${span(last.stay, zone)} on line ${last.row.line}: an animal is in one stay at a time`);
      continue;
    }
    kept.push(c);
  }

  // The cap of stays per animal: the file's oldest new stays past it are refused (the latest say where the animal is now).
  const added = kept.filter((k) => !matched.has(k.row)).length;
  let excess = recorded.length + added - STAYS_PER_ANIMAL_MAX;
  if (excess > 0) {
    const would = recorded.length + added;
    const left = new Set<ImportedRow>();
    for (const k of kept) {
      if (excess <= 0) break;
      if (matched.has(k.row)) continue;
      drop(
        k,
        `its stay (${span(k.stay, zone)}) is left out: an animal keeps at most ${STAYS_PER_ANIMAL_MAX} stays, and with the file's it would have ${would}; the oldest new stays are refused`,
      );
      left.add(k.row);
      excess--;
    }
    kept = kept.filter((k) => !left.has(k.row));
  }
  if (!kept.length) return { rows: rows.map((r) => planned.get(r)!), profile: null, insert: [], update: [], inCare: null };

  // The animal's last stay, whether it comes from the file or was recorded here after the file's.
  let lastOfAll: FileStay = kept.at(-1)!.stay;
  let lastRecorded = false;
  for (const o of others) {
    if (laterStay(o, lastOfAll) > 0) {
      lastOfAll = o;
      lastRecorded = true;
    }
  }
  const profileRow = kept.at(-1)!.row;
  const fields = wanted(profileRow, pet !== undefined);
  if (!fields.ok) throw new Error("a row that was valid is no longer");
  const patchFields: PetPatch = { ...fields.fields };
  // A return from a foster home began no stay: the animal's intake date stays its stay's.
  if (kept.at(-1)!.stay.intakeAt.getTime() !== readStayOf.get(profileRow)) delete patchFields.intakeDate;
  const profileWarnings: ReportEntry[] = [...(warnings.get(profileRow) ?? [])];
  // Decision 023, the one rule (lib/stays/rules.ts): the status and care follow from the last stay.
  const lastOutcome = lastOfAll.outcomeAt === null ? null : lastOfAll.outcomeType;
  const follows = afterLastStay(lastOutcome, patchFields.status ?? pet?.status ?? "available");
  if (patchFields.status === "sold" && follows.status !== "sold") {
    const why = lastOutcome === null ? "its last stay has no outcome: kept available" : "its last stay ended otherwise: not marked adopted";
    profileWarnings.push({
      line: profileRow.line,
      field: null,
      message: `says the animal was adopted, but ${lastRecorded && lastOutcome !== null ? "its last stay, recorded here, ended otherwise: not marked adopted" : lastOutcome === null ? why : `its last stay ended with ${lastOutcome}: not marked adopted`}`,
      ...(lastRecorded && lastOutcome !== null
        ? { withRecords: `says the animal was adopted, but its last stay, recorded here, ended with ${lastOutcome}: not marked adopted` }
        : {}),
      result: "importedWithWarning",
    });
  }
  patchFields.status = follows.status;
  const inCareWanted = follows.inCare;

  const insert: FileStay[] = [];
  const update: { id: number; stay: FileStay }[] = [];
  const changedRows = new Set<ImportedRow>();
  for (const k of kept) {
    const found = matched.get(k.row);
    k.stay = withPlacements(k.stay, found);
    if (!found) insert.push(k.stay);
    else if (!sameStay(found, k.stay)) update.push({ id: found.id, stay: k.stay });
    else continue;
    changedRows.add(k.row);
  }
  const issuesOf = (row: ImportedRow): ReportEntry[] => (row === profileRow ? profileWarnings : (warnings.get(row) ?? []));

  if (!pet) {
    const created = newPetSchema.safeParse({ ...patchFields, externalId: profileRow.externalId });
    if (!created.success) {
      for (const k of kept)
        for (const r of [k.row, ...k.absorbed])
          planned.set(
            r,
            rejected(
              r,
              created.error.issues.map((i) => refuse(r, i.path.join(".") || null, i.message)),
            ),
          );
      return { rows: rows.map((r) => planned.get(r)!), profile: null, insert: [], update: [], inCare: null };
    }
    for (const k of kept) {
      const isProfile = k.row === profileRow;
      planned.set(k.row, { row: k.row, action: "create", petId: null, ...(isProfile ? { create: created.data } : {}), stay: k.stay, issues: issuesOf(k.row) });
      for (const r of k.absorbed) planned.set(r, { row: r, action: "create", petId: null, stay: k.stay, issues: issuesOf(r) });
    }
    return { rows: rows.map((r) => planned.get(r)!), profile: planned.get(profileRow)!, insert, update, inCare: inCareWanted ? null : false };
  }

  const patch = differences(patchFields, pet);
  const inCare = existing!.inCare === inCareWanted ? null : inCareWanted;
  for (const k of kept) {
    const isProfile = k.row === profileRow;
    const changed = changedRows.has(k.row) || (isProfile && (patch !== null || inCare !== null));
    planned.set(k.row, {
      row: k.row,
      action: changed ? "update" : "unchanged",
      petId: pet.id,
      ...(isProfile && patch ? { patch } : {}),
      stay: k.stay,
      issues: issuesOf(k.row),
    });
    for (const r of k.absorbed)
      planned.set(r, { row: r, action: changedRows.has(k.row) ? "update" : "unchanged", petId: pet.id, stay: k.stay, issues: issuesOf(r) });
  }
  return { rows: rows.map((r) => planned.get(r)!), profile: planned.get(profileRow)!, insert, update, inCare };
}
