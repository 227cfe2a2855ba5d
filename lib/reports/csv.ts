import {
  AGES,
  INTAKE_DETAIL_ROWS,
  OUTCOME_DETAIL_ROWS,
  SPECIES,
  addAgeCounts,
  ageTotal,
  type Age,
  type AgeCounts,
  type IntakeDetailRow,
  type MonthlyReport,
  type OutcomeDetailRow,
  type Species,
} from "@/lib/reports/schemas";
import { INTAKE_TYPES, OUTCOME_TYPES } from "@/lib/stays/schemas";

// The monthly report as CSV in the Basic Data Matrix's layout, so staff can
// copy it into the national database's form: one block per month; rows are
// the matrix's categories, columns species × age (with each species' total).
// The beginning and ending counts, which the report keeps per species, sit in
// the total columns; the live release rate is a percentage there.

export const INTAKE_LABELS: Record<(typeof INTAKE_TYPES)[number], string> = {
  stray: "Stray/at large",
  relinquishedByOwner: "Relinquished by owner",
  ownerIntendedEuthanasia: "Owner-intended euthanasia",
  transferredIn: "Transferred in",
  otherIntake: "Other intakes",
};
// The outcomes' names are the staff pages' own; the intakes above keep the matrix's row names
// ("Stray/at large"), which differ from the pages' ("Stray").
import { OUTCOME_LABELS } from "@/lib/stays/labels";
/** The matrix's 2021 rows (issue 50), each named as part of its type's row. */
export const DETAIL_LABELS: Record<IntakeDetailRow | OutcomeDetailRow, string> = {
  seizedOrImpounded: "Other intakes: seized or impounded",
  transferredInInState: "Transferred in: in state",
  transferredInOutOfState: "Transferred in: out of state",
  transferredInInternational: "Transferred in: international",
  transferredOutInState: "Transferred out: in state",
  transferredOutOutOfState: "Transferred out: out of state",
  transferredOutInternational: "Transferred out: international",
};
export const INTAKE_DETAIL_KEYS = Object.keys(INTAKE_DETAIL_ROWS) as IntakeDetailRow[];
export const OUTCOME_DETAIL_KEYS = Object.keys(OUTCOME_DETAIL_ROWS) as OutcomeDetailRow[];
export const SPECIES_LABELS: Record<Species, string> = { dog: "Dogs", cat: "Cats", other: "Other" };
export const AGE_LABELS: Record<Age, string> = { adult: "Adult", juvenile: "Up to 5 months", unknownAge: "Age unknown" };

/** A field as RFC 4180 wants it (every cell is our own label or a number: nothing a user typed). */
function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (cells: (string | number)[]) => cells.map(field).join(",");

export function monthlyReportCsv(report: MonthlyReport): string {
  const header = ["Category", ...SPECIES.flatMap((s) => [...AGES.map((a) => `${SPECIES_LABELS[s]}: ${AGE_LABELS[a]}`), `${SPECIES_LABELS[s]}: Total`])];
  const blank = AGES.map(() => "");
  const lines: string[] = [];
  for (const month of report.months) {
    const sp = month.species;
    const countRow = (label: string, pick: (s: Species) => number) => line([label, ...SPECIES.flatMap((s) => [...blank, pick(s)])]);
    const ageRow = (label: string, pick: (s: Species) => AgeCounts) =>
      line([label, ...SPECIES.flatMap((s) => [...AGES.map((a) => pick(s)[a]), ageTotal(pick(s))])]);
    lines.push(line([`Month ${month.month}`, ...(report.timeZone ? [`Time zone ${report.timeZone}`] : [])]));
    lines.push(line(header));
    lines.push(countRow("Beginning count", (s) => sp[s].beginningCount));
    lines.push(countRow("Beginning count: in foster homes", (s) => sp[s].beginningFosterCount));
    for (const t of INTAKE_TYPES) lines.push(ageRow(`Intake: ${INTAKE_LABELS[t]}`, (s) => sp[s].intakes[t]));
    for (const d of INTAKE_DETAIL_KEYS) lines.push(ageRow(`Intake: ${DETAIL_LABELS[d]}`, (s) => sp[s].intakeDetails[d]));
    lines.push(ageRow("Total intakes", (s) => addAgeCounts(INTAKE_TYPES.map((t) => sp[s].intakes[t]))));
    for (const t of OUTCOME_TYPES) lines.push(ageRow(`Outcome: ${OUTCOME_LABELS[t]}`, (s) => sp[s].outcomes[t]));
    for (const d of OUTCOME_DETAIL_KEYS) lines.push(ageRow(`Outcome: ${DETAIL_LABELS[d]}`, (s) => sp[s].outcomeDetails[d]));
    lines.push(ageRow("Total outcomes", (s) => addAgeCounts(OUTCOME_TYPES.map((t) => sp[s].outcomes[t]))));
    lines.push(countRow("Ending count", (s) => sp[s].endingCount));
    lines.push(countRow("Ending count: in foster homes", (s) => sp[s].endingFosterCount));
    lines.push(
      line(["Live release rate", ...SPECIES.flatMap((s) => [...blank, sp[s].liveReleaseRate === null ? "" : `${(sp[s].liveReleaseRate! * 100).toFixed(1)}%`])]),
    );
    lines.push("");
  }
  return lines.join("\r\n");
}
