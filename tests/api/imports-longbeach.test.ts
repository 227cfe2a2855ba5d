import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { organizationReport } from "@/lib/reports/service";
import { newKey, newOrganization } from "./helpers";
import { importFile, type ImportReport } from "./imports-helpers";
import { add, compareMonths, countFile, csvRecords, fromMonthlyReport, isoDay, monthsBetween, shelterFile } from "./shelter-exports";

// Issue 42's acceptance: the City of Long Beach's public intake and outcome
// export (16,985 stays of 16,606 cats, 2017-2023), byte for byte, imported
// in one go with the documented value map (docs/examples/longbeach-mapping.json),
// then every month's intakes and outcomes by type, species and age counted
// twice: from the file's own rows (a small CSV reader of this test's, not the
// importer; the rows the import refused left out) and by the monthly report
// (lib/reports), each read into a "month -> counts" map and compared.

const FILE = shelterFile("longbeach-intakes-and-outcomes");
const MAPPING_TEXT = fs.readFileSync(path.join(process.cwd(), "docs", "examples", "longbeach-mapping.json"), "utf8");
const MAPPING = JSON.parse(MAPPING_TEXT) as { values: { intakeType: Record<string, string>; outcomeType: Record<string, string> } };

const state = () => db().$queryRaw<{ versions: number; audits: number; events: number; stays: number; changed: Date | null }[]>`
  SELECT (SELECT COALESCE(sum(version), 0)::int FROM pets WHERE organization_id = ${BigInt(organization)}) AS versions,
         (SELECT count(*)::int FROM pet_audit a JOIN pets p ON p.id = a.pet_id WHERE p.organization_id = ${BigInt(organization)}) AS audits,
         (SELECT count(*)::int FROM events) AS events,
         (SELECT count(*)::int FROM pet_stays WHERE organization_id = ${BigInt(organization)}) AS stays,
         (SELECT max(updated_at) FROM pet_stays WHERE organization_id = ${BigInt(organization)}) AS changed`;

let organization: number;
let key: string;
let real: ImportReport;

beforeAll(async () => {
  organization = await newOrganization({ name: "Long Beach Animal Care Services" });
  await db().$executeRaw`UPDATE organizations SET time_zone = 'America/Los_Angeles' WHERE id = ${BigInt(organization)}`;
  ({ key } = await newKey(["pets:read", "pets:write", "records:read", "records:write"], "long-beach", { plan: "pro" }, organization));
}, 60_000);

describe("Long Beach's whole file", () => {
  it("a dry run reads every word with the map and refuses only what cannot be a stay; the real run does what it said, in one go", async () => {
    const dry = await importFile({ key }, FILE, { mapping: MAPPING_TEXT, dryRun: "true" });
    expect(dry).toMatchObject({ status: "done", dryRun: true, unknownWords: {} });
    expect(dry.counts.rows).toBe(16_985);
    // One row has an outcome date without a type; eleven stays overlap the animal's previous one (README of the data).
    const refused = dry.report.filter((e) => e.result === "refused");
    expect(refused).toContainEqual({
      line: expect.any(Number),
      field: "Outcome Type",
      message: "is empty, but the row has an outcome date: an outcome has a type",
      result: "refused",
    });
    expect(refused.filter((e) => e.message.includes("overlaps the stay from")).length).toBeGreaterThanOrEqual(1);
    for (const entry of refused.filter((e) => e.message.includes("overlaps")))
      expect(entry.message).toMatch(/\d{4}-\d{2}-\d{2} to .*overlaps the stay from \d{4}-\d{2}-\d{2} to .* on line \d+/);
    // Nameless cats are imported under their ID, with a warning each.
    expect(dry.report.filter((e) => e.result === "importedWithWarning" && e.field === "Animal Name").length).toBe(7_331);

    const began = performance.now();
    real = await importFile({ key }, FILE, { mapping: MAPPING_TEXT });
    const seconds = (performance.now() - began) / 1000;
    console.info(`Long Beach: ${real.counts.rows} rows imported in ${seconds.toFixed(1)} s`, real.counts);
    expect(real).toMatchObject({ status: "done", counts: { ...dry.counts } });
    expect(real.report.map((e) => [e.line, e.result, e.message])).toEqual(dry.report.map((e) => [e.line, e.result, e.message]));
    expect(real.counts.created + real.counts.rejected).toBe(16_985);

    console.info(
      real.report
        .filter((e) => e.result === "refused")
        .map((e) => `line ${e.line} (${e.field ?? "row"}): ${e.message}`)
        .join("\n"),
    );
    // Every cat with a row kept is there once (16,606 in the file, less those whose every row was refused).
    const refusedLines = new Set(real.report.filter((e) => e.result === "refused").map((e) => e.line));
    const keptCats = new Set(
      csvRecords(FILE.toString("utf8"))
        .slice(1)
        .filter((r) => !refusedLines.has(r.line))
        .map((r) => r.cells[0]),
    );
    expect(keptCats.size).toBeGreaterThan(16_600);
    const { animals } = (
      await db().$queryRaw<{ animals: number }[]>`SELECT count(*)::int AS animals FROM pets WHERE organization_id = ${BigInt(organization)}`
    )[0]!;
    expect(animals).toBe(keptCats.size);
    const { stays } = (await state())[0]!;
    expect(stays).toBe(real.counts.created);
    const soda = await db().pet.findFirstOrThrow({
      where: { organizationId: BigInt(organization), externalId: "A635322" },
      select: { name: true, status: true },
    });
    expect(soda).toEqual({ name: "*SODA POP", status: "sold" });
    // A birth date in 2031 is refused as the API would refuse it.
    expect(refused).toContainEqual({ line: 495, field: "birthDate", message: "must not be in the future", result: "refused" });
  }, 1_200_000);

  it("every month's intakes and outcomes by type, species and age agree with the file's rows", async () => {
    const refusedLines = new Set(real.report.filter((e) => e.result === "refused").map((e) => e.line));
    const file = countFile(
      FILE,
      {
        species: "Animal Type",
        birthDate: "DOB",
        intakeDate: "Intake Date",
        intakeType: "Intake Type",
        outcomeDate: "Outcome Date",
        outcomeType: "Outcome Type",
      },
      MAPPING.values,
      refusedLines,
    );
    // The report's side: the monthly report itself (GET /v1/organizations/{id}/reports/monthly's
    // service), over every month the file has, read into the same map.
    const fileMonths = [...file.keys()].sort();
    const report = await organizationReport(organization, { from: fileMonths[0]!, to: fileMonths.at(-1)! }, new Date());
    expect(report.months).toHaveLength(monthsBetween(fileMonths[0]!, fileMonths.at(-1)!));
    const database = fromMonthlyReport(report);
    expect(file.size).toBeGreaterThan(70);
    expect(compareMonths(file, database)).toEqual([]);
    // Every month holds together: what was there at its start, plus its intakes, less its outcomes, is there at its end.
    for (const m of report.months) {
      for (const s of Object.values(m.species)) {
        const sum = (byType: Record<string, { adult: number; juvenile: number; unknownAge: number }>) =>
          Object.values(byType).reduce((n, a) => n + a.adult + a.juvenile + a.unknownAge, 0);
        expect(s.endingCount).toBe(s.beginningCount + sum(s.intakes) - sum(s.outcomes));
      }
    }
    // The comparison can fail: one stay less is seen.
    const short = fromMonthlyReport(report);
    add(short, "2019-10", "intake stray cat juvenile", -1);
    expect(compareMonths(file, short)).toHaveLength(1);
  }, 120_000);

  it("status and in_care follow each cat's last stay (decision 023)", async () => {
    const rows = await db().$queryRaw<{ last: string | null; status: string; in_care: boolean; n: number }[]>`
      SELECT last.outcome_type::text AS last, p.status::text AS status, p.in_care, count(*)::int AS n
        FROM pets p CROSS JOIN LATERAL (SELECT outcome_type FROM pet_stays s WHERE s.pet_id = p.id ORDER BY intake_at DESC, outcome_at DESC NULLS FIRST LIMIT 1) last
       WHERE p.organization_id = ${BigInt(organization)} GROUP BY 1, 2, 3`;
    for (const r of rows) {
      if (r.last === "adoption") expect([r.status, r.in_care]).toEqual(["sold", true]);
      else if (r.last === null) expect([r.status, r.in_care]).toEqual(["available", true]);
      else expect([r.last, r.status, r.in_care]).toEqual([r.last, "available", false]);
    }
    expect(rows.find((r) => r.last === "shelterEuthanasia")?.n).toBeGreaterThan(1000);
  });

  it("with FOSTER sent to foster (issue 50): those rows are no outcome, so each month's live release rate changes by exactly them, and the cats are counted in foster homes", async () => {
    const fosterOrg = await newOrganization({ name: "Long Beach, fosters" });
    await db().$executeRaw`UPDATE organizations SET time_zone = 'America/Los_Angeles' WHERE id = ${BigInt(fosterOrg)}`;
    const fosterKey = (await newKey(["pets:read", "pets:write", "records:read", "records:write"], "long-beach-fosters", { plan: "pro" }, fosterOrg)).key;
    const mapping = JSON.parse(MAPPING_TEXT) as typeof MAPPING;
    expect(mapping.values.outcomeType.FOSTER).toBe("otherLiveOutcome");
    mapping.values.outcomeType.FOSTER = "foster";
    const fostered = await importFile({ key: fosterKey }, FILE, { mapping: JSON.stringify(mapping) });
    expect(fostered.counts.rejected).toBe(real.counts.rejected);

    // From the file: the rows whose outcome is FOSTER (and were not refused), by the month of their outcome.
    const refusedLines = new Set(fostered.report.filter((e) => e.result === "refused").map((e) => e.line));
    const records = csvRecords(FILE.toString("utf8"));
    const column = (name: string) => records[0]!.cells.findIndex((c) => c.replace(/^\uFEFF/, "") === name);
    const [outcomeType, outcomeDate, species] = [column("Outcome Type"), column("Outcome Date"), column("Animal Type")];
    const trips = records.slice(1).filter((r) => !refusedLines.has(r.line) && r.cells[outcomeType] === "FOSTER");
    expect(trips.every((r) => r.cells[species] === "CAT")).toBe(true);
    const tripsIn = new Map<string, number>();
    for (const r of trips) tripsIn.set(isoDay(r.cells[outcomeDate]!).slice(0, 7), (tripsIn.get(isoDay(r.cells[outcomeDate]!).slice(0, 7)) ?? 0) + 1);
    expect(trips.length).toBeGreaterThan(0);

    const months = [...tripsIn.keys()].sort();
    const range = { from: months[0]!, to: "2023-12" };
    const live = await organizationReport(organization, range, new Date());
    const foster = await organizationReport(fosterOrg, range, new Date());
    const sum = (a: { adult: number; juvenile: number; unknownAge: number }) => a.adult + a.juvenile + a.unknownAge;
    let open = 0;
    let changed = 0;
    for (const [i, month] of live.months.entries()) {
      const a = month.species.cat;
      const b = foster.months[i]!.species.cat;
      const n = tripsIn.get(month.month) ?? 0;
      // Only otherLiveOutcome differs, by the month's trips; every intake and other outcome is the same.
      expect(sum(a.outcomes.otherLiveOutcome) - sum(b.outcomes.otherLiveOutcome), month.month).toBe(n);
      expect({ ...b.outcomes, otherLiveOutcome: null }).toEqual({ ...a.outcomes, otherLiveOutcome: null });
      expect(b.intakes).toEqual(a.intakes);
      // The live release rate without those rows, as the matrix counts it.
      const all = Object.entries(a.outcomes).reduce((t, [type, ages]) => t + (type === "ownerIntendedEuthanasia" ? 0 : sum(ages)), 0);
      const liveOnes = (["adoption", "returnedToOwner", "transferredOut", "returnedToField", "otherLiveOutcome"] as const).reduce(
        (t, type) => t + sum(a.outcomes[type]),
        0,
      );
      expect(b.liveReleaseRate, month.month).toBe(all - n === 0 ? null : Math.round(((liveOnes - n) / (all - n)) * 10_000) / 10_000);
      if (n) {
        changed++;
        expect(b.liveReleaseRate).not.toBe(a.liveReleaseRate);
      }
      // The cats sent to foster homes stay in care, in a foster home (none of them came back in the file).
      expect(b.beginningCount - a.beginningCount, month.month).toBe(open);
      expect(b.beginningFosterCount, month.month).toBe(open);
      open += n;
      expect(b.endingFosterCount, month.month).toBe(open);
    }
    expect(open).toBe(trips.length);
    expect(changed).toBe(tripsIn.size);
  }, 1_200_000);

  it("the same file again changes nothing (no version, audit record, event or stay); a changed row changes its stay, announced as one change of its cat", async () => {
    const before = (await state())[0]!;
    const again = await importFile({ key }, FILE, { mapping: MAPPING_TEXT });
    expect(again.counts).toMatchObject({ created: 0, updated: 0, unchanged: real.counts.created, rejected: real.counts.rejected });
    expect((await state())[0]).toEqual(before);

    // An earlier stay (not the last) of a cat with several: its outcome changed in the file from RESCUE to RETURN TO OWNER.
    const text = FILE.toString("utf8");
    const records = csvRecords(text).slice(1);
    const refusedLines = new Set(real.report.filter((e) => e.result === "refused").map((e) => e.line));
    const latest = new Map<string, string>();
    for (const r of records) {
      const day = isoDay(r.cells[8]!);
      if (!refusedLines.has(r.line) && day > (latest.get(r.cells[0]!) ?? "")) latest.set(r.cells[0]!, day);
    }
    const target = records.find((r) => !refusedLines.has(r.line) && r.cells[16] === "RESCUE" && isoDay(r.cells[8]!) < latest.get(r.cells[0]!)!)!;
    const lines = text.split("\r\n");
    lines[target.line - 1] = lines[target.line - 1]!.replace(",RESCUE,", ",RETURN TO OWNER,");
    const pet = await db().pet.findFirstOrThrow({
      where: { organizationId: BigInt(organization), externalId: target.cells[0]! },
      select: { id: true, version: true },
    });
    const changed = await importFile({ key }, Buffer.from(lines.join("\r\n"), "utf8"), { mapping: MAPPING_TEXT });
    expect(changed.counts).toMatchObject({ created: 0, updated: 1, rejected: real.counts.rejected });
    expect(changed.preview.length).toBeGreaterThan(0);
    const after = (await state())[0]!;
    // Issue 48: a change of the stays alone is a change of the cat, through the write path (one version, audit record and event).
    expect({ ...after, changed: null }).toEqual({
      ...before,
      versions: before.versions + 1,
      audits: before.audits + 1,
      events: before.events + 1,
      changed: null,
    });
    expect(after.changed!.getTime()).toBeGreaterThan(before.changed!.getTime());
    const stays = await db().petStay.findMany({ where: { petId: pet.id }, orderBy: { intakeAt: "asc" }, select: { intakeOn: true, outcomeType: true } });
    expect(stays.find((s) => s.intakeOn.toISOString().slice(0, 10) === isoDay(target.cells[8]!))?.outcomeType).toBe("returnedToOwner");
    expect((await db().pet.findUniqueOrThrow({ where: { id: pet.id }, select: { version: true } })).version).toBe(pet.version + 1);
  }, 1_200_000);
});
