import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "@/tests/wait";
import { db } from "@/lib/db";
import { ImportBusyError, runImport } from "@/lib/imports/run";
import { PETFINDER_COLUMNS } from "@/lib/listings/formats/petfinder";
import { newOrganization, staffSession } from "./helpers";
import { NO_DNS } from "./imports-helpers";

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
    expect(real.stdout).toContain('line 6 (Type) refused: "Horse" is not a species');
    expect(real.stdout).toContain("line 7 (AnimalName) refused: is empty: every animal needs a name");
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
    // Three CLI processes, each starting tsx: on a busy machine, more than the default 20 s.
  }, 90_000);

  it("a file it cannot read, or an unknown organisation: a clear message and exit 1", () => {
    const missing = cli("import", "/nonexistent.csv", "--org", "1");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("cannot read /nonexistent.csv");
    const unknown = cli("import", "/nonexistent.csv", "--org", "no-such-shelter");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('There is no organisation "no-such-shelter"');
  });
});

const tempFile = (name: string, content: string | Buffer) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "import-")), name);
  fs.writeFileSync(file, content);
  return file;
};

describe("cli import and the terminal", () => {
  it("prints a file's cells and names as text: the escape sequences they hold never reach the terminal", async () => {
    const org = await newOrganization({ name: "Escape Rescue" });
    await staffSession(undefined, { organizationId: org });
    const cells: Record<string, string> = { ID: "E-1", AnimalName: "Rex", Type: "\u001b[2J\u001b]0;owned\u0007\u009b31mDog\u202e" };
    const file = tempFile("escapes.csv", `${PETFINDER_COLUMNS.join(",")}\n${PETFINDER_COLUMNS.map((c) => `"${cells[c] ?? ""}"`).join(",")}\n`);
    const run = cli("import", file, "--org", String(org));
    expect(run.stdout).toContain("line 2 (Type) refused: ");
    const terminalControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u;
    expect(run.stdout).not.toMatch(terminalControls);
    expect(run.stderr).not.toMatch(terminalControls);
    // A name the CLI is given and prints back (the file's path, in an error): shown escaped.
    const named = cli("import", "/nonexistent/\u001b[31mred.csv", "--org", String(org));
    expect(named.status).toBe(1);
    expect(named.stderr).toContain("cannot read /nonexistent/\\x1b[31mred.csv");
    expect(named.stderr).not.toMatch(terminalControls);
  }, 60_000);
});

describe("cli import beside a running server", () => {
  it("the CLI and the server's job worker both given the import: one runs it, the other follows it; each animal is created once", async () => {
    const org = await newOrganization({ name: "Racing Cli Rescue" });
    await staffSession(undefined, { organizationId: org });
    // No ID column: every row is a new animal, so two runners would make each twice.
    const file = tempFile("no-ids.csv", ["Name,Kind", ...Array.from({ length: 300 }, (_, i) => `Racer ${i},Dog`)].join("\n") + "\n");
    const mapping = tempFile("mapping.json", JSON.stringify({ name: "Name", species: "Kind" }));
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "import", file, "--org", String(org), "--mapping", mapping], {
      env: { ...process.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // The worker: takes the import's job as soon as it is queued, as a server's would.
    let worked = false;
    const job = await until(
      "the CLI to queue its import (or to exit)",
      async () => {
        const [queued] = await db().$queryRaw<{ id: bigint; importId: string }[]>`
        SELECT j.id, j.payload->>'importId' AS "importId" FROM graphile_worker._private_jobs j JOIN imports i ON i.id = (j.payload->>'importId')::bigint
         WHERE i.organization_id = ${BigInt(org)}`;
        return queued ?? (child.exitCode !== null && "exited");
      },
      90_000,
    );
    if (job !== "exited") {
      await runImport(Number(job.importId), NO_DNS).catch((error: unknown) => {
        if (!(error instanceof ImportBusyError)) throw error;
      });
      await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE id = ${job.id}`;
      worked = true;
    }
    expect(await exited, stderr).toBe(0);
    expect(worked).toBe(true);
    expect(stdout).toContain("Imported: 300 created, 0 updated, 0 unchanged, 0 rejected");
    expect(await db().pet.count({ where: { organizationId: BigInt(org) } })).toBe(300);
    // A CLI process starting under tsx, then 300 rows paced to share the machine: on a loaded CI host a minute was not always enough.
  }, 150_000);
});
