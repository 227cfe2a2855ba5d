import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newOrganization, staffSession } from "./helpers";

// `npm run cli -- import <file> --org <id|slug>`: the same import as the API,
// run in the CLI's own process, with the counts at the end and exit status 1
// when rows were rejected.

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], { env: { ...process.env }, encoding: "utf8", timeout: 120_000 });

describe("cli import", () => {
  it("imports a file into the organisation named by slug, prints the counts and the rejected rows, exits 1 for the rejections; --dry-run writes nothing", async () => {
    const org = await newOrganization({ name: "Cli Rescue" });
    const staff = await staffSession(undefined, { organizationId: org });
    const file = path.join(process.cwd(), "tests", "fixtures", "listings", "petfinder.csv");

    const dry = cli("import", file, "--org", "cli-rescue", "--dry-run", "--missing", "adopted");
    expect(dry.stdout).toContain("Would import: 4 created, 0 updated, 0 unchanged, 2 rejected");
    expect(dry.status, dry.stderr).toBe(1);
    expect(await db().pet.count({ where: { organizationId: BigInt(org) } })).toBe(0);

    const real = cli("import", file, "--org", "cli-rescue");
    expect(real.stdout).toContain("line 6 (Type): \"Horse\" is not a species");
    expect(real.stdout).toContain("line 7 (AnimalName): is empty: every animal needs a name");
    expect(real.stdout).toContain("Imported: 4 created, 0 updated, 0 unchanged, 2 rejected");
    expect(real.status, real.stderr).toBe(1);
    expect(await db().pet.count({ where: { organizationId: BigInt(org) } })).toBe(4);
    const pet = await db().pet.findFirstOrThrow({ where: { organizationId: BigInt(org) }, select: { id: true } });
    const audit = await db().petAudit.findFirstOrThrow({ where: { petId: pet.id }, select: { actorKind: true, actorName: true, requestId: true } });
    expect(audit).toMatchObject({ actorKind: "staff", actorName: staff.email, requestId: expect.stringMatching(/^import-\d+$/) });

    // A file without rejections: exit 0.
    const clean = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "import-")), "aap.csv");
    fs.copyFileSync(path.join(process.cwd(), "tests", "fixtures", "listings", "adoptapet-22-header.csv"), clean);
    const ok = cli("import", clean, "--org", String(org), "--format", "adoptapet");
    expect(ok.stdout).toContain("Imported: 2 created");
    expect(ok.status, ok.stderr).toBe(0);
  });

  it("a file it cannot read, or an unknown organisation: a clear message and exit 1", () => {
    const missing = cli("import", "/nonexistent.csv", "--org", "1");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("cannot read /nonexistent.csv");
    const unknown = cli("import", "/nonexistent.csv", "--org", "no-such-shelter");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('There is no organisation "no-such-shelter"');
  });
});
