import { differences, refusals, rejected, wanted, type PlannedRow } from "@/lib/imports/plan";
import type { ImportIssue } from "@/lib/imports/schemas";
import { instantOf, readStayTime, type StayTime } from "@/lib/imports/stay-times";
import type { ImportedRow } from "@/lib/listings/formats/types";
import type { IntakeType, OutcomeType } from "@/lib/stays/schemas";
import { newPetSchema, type Pet, type PetPatch } from "@/lib/pets/schemas/pet";

// A shelter's history in a generic file (issue 42): each row is one stay of
// an animal (intake, and outcome once it left), the rows with the same
// externalId the stays of one animal. What one animal's rows do, decided
// without writing (a dry run stops here), following decision 023: stays
// never overlap, an open stay is the last, and the animal's status and
// in_care follow from its last stay. Nothing here writes.

/** A stay as the file gives it, its times read in the organisation's zone. */
export interface FileStay {
  intakeAt: Date;
  intakeType: IntakeType;
  intakeSubtype: string | null;
  outcomeAt: Date | null;
  outcomeType: OutcomeType | null;
  outcomeSubtype: string | null;
}

/** A stay already recorded for the animal (pet_stays). */
export interface RecordedStay extends FileStay {
  id: number;
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
/** Half-open ranges, as the database's pet_stays_no_overlap: an intake on the day of the last outcome is no overlap. */
const overlaps = (a: FileStay, b: FileStay) => a.intakeAt.getTime() < endOf(b) && b.intakeAt.getTime() < endOf(a) && endOf(a) > a.intakeAt.getTime() && endOf(b) > b.intakeAt.getTime();

/** A stay's dates as the report names them: the file's days (or times), "open" without an outcome. */
function span(s: FileStay, zone: string): string {
  const day = (d: Date) => {
    const local = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
    const time = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(d);
    return time === "00:00" ? local : `${local} ${time}`;
  };
  return `${day(s.intakeAt)} to ${s.outcomeAt ? day(s.outcomeAt) : "now (no outcome)"}`;
}

function sameStay(a: FileStay, b: FileStay): boolean {
  return (
    a.intakeAt.getTime() === b.intakeAt.getTime() &&
    a.intakeType === b.intakeType &&
    a.intakeSubtype === b.intakeSubtype &&
    (a.outcomeAt?.getTime() ?? null) === (b.outcomeAt?.getTime() ?? null) &&
    a.outcomeType === b.outcomeType &&
    a.outcomeSubtype === b.outcomeSubtype
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
  const outcomeType = (cells?.outcomeType ?? null) as OutcomeType | null;
  if (outcome && !outcomeType) return refuse(row, columns.outcomeType ?? null, "is empty, but the row has an outcome date: an outcome has a type");
  if (!outcome && outcomeType) return refuse(row, columns.outcomeDate ?? null, `is empty, but the row has the outcome ${outcomeType}: an outcome has a date`);
  const stay: FileStay = {
    intakeAt: instantOf(intake, zone),
    intakeType: (cells?.intakeType ?? "otherIntake") as IntakeType,
    intakeSubtype: cells?.intakeSubtype ?? null,
    outcomeAt: outcome ? instantOf(outcome, zone) : null,
    outcomeType: outcome ? outcomeType : null,
    outcomeSubtype: outcome ? (cells?.outcomeSubtype ?? null) : null,
  };
  if (stay.intakeAt > now) return refuse(row, columns.intakeDate, "is in the future: a stay is recorded once it has begun");
  if (stay.outcomeAt && stay.outcomeAt > now) return refuse(row, columns.outcomeDate ?? null, "is in the future: an outcome is recorded once it has happened");
  if (stay.outcomeAt && stay.outcomeAt < stay.intakeAt) return refuse(row, columns.outcomeDate ?? null, `is before the intake (${span(stay, zone)}): an animal leaves after it came in`);
  return stay;
}

/** Candidates by intake, ended before open, then in file order. */
function byIntake(a: { stay: FileStay; row: ImportedRow }, b: { stay: FileStay; row: ImportedRow }): number {
  return a.stay.intakeAt.getTime() - b.stay.intakeAt.getTime() || endOf(a.stay) - endOf(b.stay) || a.row.line - b.row.line;
}

/**
 * One animal's rows (file order), against the animal (when it exists) and
 * its recorded stays. A row is refused for its own errors, a stay that
 * cannot be read, one that overlaps another of the animal (both dates named;
 * the later one is refused, the others still import), or an open stay that
 * is not the last. A recorded stay is the file's when it has the same
 * intake time: it is updated when the row changed, left alone otherwise,
 * so the same file twice changes nothing.
 */
export function planAnimal(rows: readonly ImportedRow[], existing: { pet: Pet; inCare: boolean; stays: readonly RecordedStay[] } | undefined, columns: StayColumns, zone: string, now: Date): AnimalPlan {
  const pet = existing?.pet;
  const recorded = existing?.stays ?? [];
  const planned = new Map<ImportedRow, HistoryRow>();
  const candidates: { row: ImportedRow; stay: FileStay }[] = [];
  for (const row of rows) {
    if (row.errors.length) {
      planned.set(row, rejected(row, refusals(row), pet?.id ?? null));
      continue;
    }
    const fields = wanted(row, pet !== undefined);
    if (!fields.ok) {
      planned.set(row, rejected(row, fields.issues.map((i) => ({ ...i, result: "refused" as const })), pet?.id ?? null));
      continue;
    }
    const stay = readStay(row, columns, zone, now);
    if ("message" in stay) planned.set(row, rejected(row, [stay], pet?.id ?? null));
    else candidates.push({ row, stay });
  }
  candidates.sort(byIntake);

  // The recorded stays the file's rows are (same intake time, in order), and the others, which the file must not overlap.
  const byIntakeTime = new Map<number, RecordedStay[]>();
  for (const s of [...recorded].sort((a, b) => a.intakeAt.getTime() - b.intakeAt.getTime() || endOf(a) - endOf(b))) {
    byIntakeTime.set(s.intakeAt.getTime(), [...(byIntakeTime.get(s.intakeAt.getTime()) ?? []), s]);
  }
  const matched = new Map<ImportedRow, RecordedStay>();
  for (const c of candidates) {
    const same = byIntakeTime.get(c.stay.intakeAt.getTime());
    const first = same?.shift();
    if (first) matched.set(c.row, first);
  }
  const others = [...byIntakeTime.values()].flat();

  const kept: { row: ImportedRow; stay: FileStay }[] = [];
  const drop = (c: { row: ImportedRow }, message: string) => {
    planned.set(c.row, rejected(c.row, [refuse(c.row, null, message)], pet?.id ?? null));
    matched.delete(c.row);
  };
  for (const c of candidates) {
    const recordedOverlap = others.find((o) => overlaps(o, c.stay));
    if (recordedOverlap) {
      drop(c, `its stay (${span(c.stay, zone)}) overlaps the animal's stay from ${span(recordedOverlap, zone)}, recorded here: an animal is in one stay at a time`);
      continue;
    }
    let last = kept.at(-1);
    // An open stay is the animal's last: one followed by another stay is refused, and the later one compared with the stay before it.
    while (last && last.stay.outcomeAt === null) {
      kept.pop();
      drop(last, `its stay (${span(last.stay, zone)}) has no outcome, but the animal has a later stay from ${span(c.stay, zone)} on line ${c.row.line}: only the last stay may be open`);
      last = kept.at(-1);
    }
    if (last && overlaps(last.stay, c.stay)) {
      drop(c, `its stay (${span(c.stay, zone)}) overlaps the stay from ${span(last.stay, zone)} on line ${last.row.line}: an animal is in one stay at a time`);
      continue;
    }
    kept.push(c);
  }
  if (!kept.length) return { rows: rows.map((r) => planned.get(r)!), profile: null, insert: [], update: [], inCare: null };

  // The animal's last stay, whether it comes from the file or was recorded here after the file's.
  const lastOfAll = [...kept.map((k) => k.stay), ...others].sort((a, b) => a.intakeAt.getTime() - b.intakeAt.getTime() || endOf(a) - endOf(b)).at(-1)!;
  const profileRow = kept.at(-1)!.row;
  const fields = wanted(profileRow, pet !== undefined);
  if (!fields.ok) throw new Error("a row that was valid is no longer");
  const patchFields: PetPatch = { ...fields.fields };
  const warnings: ImportIssue[] = [];
  // Decision 023: the status follows from the last stay (an adoption is `sold`; an open stay is available unless the file says pending).
  if (lastOfAll.outcomeType === "adoption") patchFields.status = "sold";
  else if (lastOfAll.outcomeAt === null) {
    if (patchFields.status === "sold") {
      warnings.push({ line: profileRow.line, field: null, message: "says the animal was adopted, but its last stay has no outcome: kept available", result: "importedWithWarning" });
      patchFields.status = "available";
    } else if (!patchFields.status && (!pet || pet.status === "sold")) patchFields.status = "available";
  } else if (!patchFields.status && !pet) patchFields.status = "available";
  else if (patchFields.status === "sold") {
    warnings.push({ line: profileRow.line, field: null, message: `says the animal was adopted, but its last stay ended with ${lastOfAll.outcomeType}: not marked adopted`, result: "importedWithWarning" });
    delete patchFields.status;
    if (!pet) patchFields.status = "available";
  }
  const inCareWanted = lastOfAll.outcomeAt === null || lastOfAll.outcomeType === "adoption";

  const insert: FileStay[] = [];
  const update: { id: number; stay: FileStay }[] = [];
  const changedRows = new Set<ImportedRow>();
  for (const k of kept) {
    const found = matched.get(k.row);
    if (!found) insert.push(k.stay);
    else if (!sameStay(found, k.stay)) update.push({ id: found.id, stay: k.stay });
    else continue;
    changedRows.add(k.row);
  }

  if (!pet) {
    const created = newPetSchema.safeParse({ ...patchFields, externalId: profileRow.externalId });
    if (!created.success) {
      for (const k of kept) planned.set(k.row, rejected(k.row, created.error.issues.map((i) => refuse(k.row, i.path.join(".") || null, i.message))));
      return { rows: rows.map((r) => planned.get(r)!), profile: null, insert: [], update: [], inCare: null };
    }
    for (const k of kept) {
      const isProfile = k.row === profileRow;
      planned.set(k.row, { row: k.row, action: "create", petId: null, ...(isProfile ? { create: created.data } : {}), stay: k.stay, issues: isProfile ? warnings : [] });
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
      issues: isProfile ? warnings : [],
    });
  }
  return { rows: rows.map((r) => planned.get(r)!), profile: planned.get(profileRow)!, insert, update, inCare };
}
