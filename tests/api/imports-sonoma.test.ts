import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { organizationReport } from "@/lib/reports/service";
import { newKey, newOrganization } from "./helpers";
import { importFile } from "./imports-helpers";
import { compareMonths, countFile, fromMonthlyReport, monthsBetween, shelterFile } from "./shelter-exports";

// A second real export, written by another shelter's system: Sonoma County
// Animal Services' intakes and outcomes (16,792 stays of dogs, cats and
// other animals, 2013-2019; open data), byte for byte, imported with the map
// in docs/examples/sonoma-mapping.json. Its words differ from Long Beach's
// (ADOPTION RETURN, EUTHANIZE, ESCAPED/STOLEN, sizes KITTN/TOY/X-LRG, sex
// Neutered/Spayed), and its OTHER animals (bats, chickens…) go to the "Small
// mammals" category, counted as `other` by the report. Then the monthly
// report, every month of the file, against the file's own count of the rows
// kept.

const FILE = shelterFile("sonoma-intakes-and-outcomes");
const MAPPING_TEXT = fs.readFileSync(path.join(process.cwd(), "docs", "examples", "sonoma-mapping.json"), "utf8");
const MAPPING = JSON.parse(MAPPING_TEXT) as { values: { intakeType: Record<string, string>; outcomeType: Record<string, string> } };

let organization: number;
let key: string;

beforeAll(async () => {
  organization = await newOrganization({ name: "Sonoma County Animal Services" });
  await db().$executeRaw`UPDATE organizations SET time_zone = 'America/Los_Angeles' WHERE id = ${BigInt(organization)}`;
  ({ key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "sonoma", { plan: "pro" }, organization));
}, 60_000);

describe("Sonoma County's whole file", () => {
  it("imports with its map (only rows that cannot be a stay refused: 16,785 of 16,792 kept), and the report counts every month as the file does", async () => {
    const dry = await importFile({ key }, FILE, { mapping: MAPPING_TEXT, dryRun: "true" });
    expect(dry).toMatchObject({ status: "done", dryRun: true, unknownWords: {} });
    expect(dry.counts.rows).toBe(16_792);
    const refused = dry.report.filter((e) => e.result === "refused");
    // Three rows with an outcome date but no type, four stays that overlap the animal's previous one: 16,785 of 16,792 kept.
    expect(refused.filter((e) => e.field === "Outcome Type").map((e) => e.message)).toEqual(
      Array(3).fill("is empty, but the row has an outcome date: an outcome has a type"),
    );
    const overlaps = refused.filter((e) => e.message.includes("overlaps the stay from"));
    expect(overlaps).toHaveLength(4);
    for (const entry of overlaps) expect(entry.message).toMatch(/\d{4}-\d{2}-\d{2} to .*overlaps the stay from \d{4}-\d{2}-\d{2} to .* on line \d+/);
    expect(refused).toHaveLength(7);

    const real = await importFile({ key }, FILE, { mapping: MAPPING_TEXT });
    expect(real).toMatchObject({ status: "done", counts: { ...dry.counts } });
    expect(real.counts.created + real.counts.rejected).toBe(16_792);
    const { stays } = (
      await db().$queryRaw<{ stays: number }[]>`SELECT count(*)::int AS stays FROM pet_stays WHERE organization_id = ${BigInt(organization)}`
    )[0]!;
    expect(stays).toBe(real.counts.created);

    const refusedLines = new Set(real.report.filter((e) => e.result === "refused").map((e) => e.line));
    const columns = {
      species: "Type",
      birthDate: "Date Of Birth",
      intakeDate: "Intake Date",
      intakeType: "Intake Type",
      outcomeDate: "Outcome Date",
      outcomeType: "Outcome Type",
    };
    const file = countFile(FILE, columns, MAPPING.values, refusedLines);
    const fileMonths = [...file.keys()].sort();
    const report = await organizationReport(organization, { from: fileMonths[0]!, to: fileMonths.at(-1)! }, new Date());
    expect(report.months).toHaveLength(monthsBetween(fileMonths[0]!, fileMonths.at(-1)!));
    expect(compareMonths(file, fromMonthlyReport(report))).toEqual([]);
    // The counts carry from month to month: what ends one begins the next.
    for (const [i, month] of report.months.entries()) {
      for (const s of Object.values(month.species)) {
        const sum = (byType: Record<string, Record<string, number>>) =>
          Object.values(byType).reduce((n, ages) => n + Object.values(ages).reduce((a, b) => a + b, 0), 0);
        expect(s.endingCount).toBe(s.beginningCount + sum(s.intakes) - sum(s.outcomes));
      }
      if (i > 0)
        for (const kind of ["dog", "cat", "other"] as const) expect(month.species[kind].beginningCount).toBe(report.months[i - 1]!.species[kind].endingCount);
    }
  }, 1_200_000);
});
