import { gunzipSync } from "node:zlib";
import fs from "node:fs";
import path from "node:path";

// Counting a real shelter's intake and outcome export by its own cells, as
// the monthly report should count it (issue 42): the independent side of the
// comparisons in imports-longbeach.test.ts and imports-sonoma.test.ts.

/** A shelter's export kept under tests/fixtures/shelters (gzipped, byte for byte as published). */
export function shelterFile(name: string): Buffer {
  return gunzipSync(fs.readFileSync(path.join(process.cwd(), "tests", "fixtures", "shelters", `${name}.csv.gz`)));
}

export type Age = "adult" | "juvenile" | "unknownAge";
/** "intake stray cat juvenile" -> count, for one month. */
export type MonthCounts = Map<string, Map<string, number>>;

export function add(months: MonthCounts, month: string, key: string, n = 1): void {
  const counts = months.get(month) ?? new Map<string, number>();
  counts.set(key, (counts.get(key) ?? 0) + n);
  months.set(month, counts);
}

/** Every difference between two sides, as readable lines (none when they agree). */
export function compareMonths(expected: MonthCounts, actual: MonthCounts): string[] {
  const differences: string[] = [];
  for (const month of [...new Set([...expected.keys(), ...actual.keys()])].sort()) {
    const e = expected.get(month) ?? new Map<string, number>();
    const a = actual.get(month) ?? new Map<string, number>();
    for (const key of [...new Set([...e.keys(), ...a.keys()])].sort()) {
      if ((e.get(key) ?? 0) !== (a.get(key) ?? 0)) differences.push(`${month} ${key}: file ${e.get(key) ?? 0}, database ${a.get(key) ?? 0}`);
    }
  }
  return differences;
}

/** The monthly report's answer (GET /v1/organizations/{id}/reports/monthly, issue 42's shape) as the same map: for when the database side becomes the report. */
export function fromMonthlyReport(report: {
  months: { month: string; species: Record<string, { intakes: Record<string, Record<Age, number>>; outcomes: Record<string, Record<Age, number>> }> }[];
}): MonthCounts {
  const months: MonthCounts = new Map();
  for (const { month, species } of report.months) {
    for (const [kind, s] of Object.entries(species)) {
      for (const [side, byType] of [
        ["intake", s.intakes],
        ["outcome", s.outcomes],
      ] as const) {
        for (const [type, ages] of Object.entries(byType)) {
          for (const [age, n] of Object.entries(ages)) if (n) add(months, month, `${side} ${type} ${kind} ${age}`, n);
        }
      }
    }
  }
  return months;
}

/** RFC 4180 records with the line each starts on (quoted commas and line breaks, CRLF, a BOM). */
/** How many calendar months from one YYYY-MM to another, both included. */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split("-").map(Number) as [number, number];
  const [ty, tm] = to.split("-").map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
}

export function csvRecords(text: string): { line: number; cells: string[] }[] {
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        cell += c;
      }
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else if (c === "\r") continue;
    else if (c === "\n") {
      cells.push(cell);
      records.push({ line: start, cells });
      cells = [];
      cell = "";
      line++;
      start = line;
    } else cell += c;
  }
  if (cell !== "" || cells.length) records.push({ line: start, cells: [...cells, cell] });
  return records;
}

/** M/D/YYYY as YYYY-MM-DD. */
export function isoDay(us: string): string {
  const [m, d, y] = us.split("/");
  return `${y}-${m!.padStart(2, "0")}-${d!.padStart(2, "0")}`;
}

/** Juvenile: the day is earlier than five calendar months after the birth date (issue 42). */
export function ageOn(day: string, birth: string | null): Age {
  if (!birth) return "unknownAge";
  const [y, m, d] = birth.split("-").map(Number) as [number, number, number];
  const months = m - 1 + 5;
  const year = y + Math.floor(months / 12);
  const month = (months % 12) + 1;
  // The 31st plus five months where that month is shorter: its last day (as PostgreSQL's date + interval does).
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const fiveMonths = `${year}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
  return day < fiveMonths ? "juvenile" : "adult";
}

/** The columns an export names its facts by, and the map from its words to ours (the import's mapping.values). */
export interface ExportColumns {
  species: string;
  birthDate: string;
  intakeDate: string;
  intakeType: string;
  outcomeDate: string;
  outcomeType: string;
}

/** The file's side: every row the import kept, counted by its own cells and the map's words. */
export function countFile(
  file: Buffer,
  columns: ExportColumns,
  values: { intakeType: Record<string, string>; outcomeType: Record<string, string> },
  refusedLines: Set<number>,
): MonthCounts {
  const [header, ...rows] = csvRecords(file.toString("utf8"));
  const col = (name: string) => header!.cells.indexOf(name);
  const [type, dob, intakeDate, intakeType, outcomeDate, outcomeType] = [
    columns.species,
    columns.birthDate,
    columns.intakeDate,
    columns.intakeType,
    columns.outcomeDate,
    columns.outcomeType,
  ].map(col) as number[];
  // The matrix's 2021 rows a map may name (issue 50) are part of today's types, which the report's intakes and outcomes keep.
  const ours = (words: Record<string, string>, word: string) => {
    const target = words[word] ?? word.toLowerCase();
    return target === "seizedOrImpounded" ? "otherIntake" : (/^(transferred(?:In|Out))(?:InState|OutOfState|International)$/.exec(target)?.[1] ?? target);
  };
  const months: MonthCounts = new Map();
  for (const { line, cells } of rows) {
    if (refusedLines.has(line)) continue;
    const species = cells[type!] === "CAT" ? "cat" : cells[type!] === "DOG" ? "dog" : "other";
    const birth = cells[dob!] ? isoDay(cells[dob!]!) : null;
    const intake = isoDay(cells[intakeDate!]!);
    add(months, intake.slice(0, 7), `intake ${ours(values.intakeType, cells[intakeType!]!)} ${species} ${ageOn(intake, birth)}`);
    if (cells[outcomeDate!]) {
      const outcome = isoDay(cells[outcomeDate!]!);
      add(months, outcome.slice(0, 7), `outcome ${ours(values.outcomeType, cells[outcomeType!]!)} ${species} ${ageOn(outcome, birth)}`);
    }
  }
  return months;
}
