import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { platformName, runtimeManifest, runtimeProblem } from "./require-node";

// The Node.js the project runs on: package.json says which versions
// (engines) and brings the binary (optionalDependencies, linked as
// node_modules/.bin/node, which every npm script runs); every entry point
// refuses an older Node with one sentence that says what to do.

const ROOT = path.resolve(import.meta.dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const manifest = runtimeManifest(pkg);
const major = (version: string) => Number(version.split(".")[0]);
const installedManifest = path.join(ROOT, "node_modules", `node-${platformName(process.platform, process.arch)}`, "package.json");
// Absent on a platform npm brings no binary for (the developer's own Node runs there).
const installedVersion: string | undefined = fs.existsSync(installedManifest) ? JSON.parse(fs.readFileSync(installedManifest, "utf8")).version : undefined;

describe("the Node.js package.json asks for and brings", () => {
  it("engines names the current LTS line, and every binary it brings is of that line and satisfies it", () => {
    expect(major(manifest.minimum)).toBe(24);
    expect(Object.keys(manifest.binaries).sort()).toEqual(["darwin-x64", "linux-arm64", "linux-x64", "win-x64"]);
    for (const [platform, version] of Object.entries(manifest.binaries)) {
      expect(
        runtimeProblem({ version, execPath: platform, minimum: manifest.minimum, binaries: {}, platform, installed: undefined }),
        platform,
      ).toBeUndefined();
      expect(major(version), platform).toBe(major(manifest.minimum));
    }
    // nvm, fnm and friends install the same line where npm brings none (macOS on Apple silicon).
    expect(fs.readFileSync(path.join(ROOT, ".nvmrc"), "utf8").trim()).toBe(String(major(manifest.minimum)));
  });

  it.skipIf(!installedVersion)("the tests run on the binary npm installed for this machine (npm scripts put node_modules/.bin first)", () => {
    expect(process.versions.node).toBe(installedVersion);
  });

  it("refuses only an engines value it can read", () => {
    expect(runtimeManifest({ engines: { node: ">=24.11" } }).minimum).toBe("24.11");
    expect(() => runtimeManifest({ engines: { node: "^24.11.0" } })).toThrow(/engines.node must read ">=X.Y"/);
    expect(() => runtimeManifest({})).toThrow(/engines.node/);
  });
});

describe("an older Node is told what to do, in one sentence", () => {
  const base = { execPath: "/usr/bin/node", minimum: "24.11", binaries: { "linux-x64": "24.21.0", "darwin-x64": "24.18.1" }, platform: "linux-x64" };

  it("accepts the minimum and anything newer, refuses anything older", () => {
    for (const version of ["24.11.0", "24.21.0", "26.1.0"]) expect(runtimeProblem({ ...base, version, installed: "24.21.0" }), version).toBeUndefined();
    for (const version of ["20.20.2", "22.22.0", "24.10.9", "24.0.0"])
      expect(runtimeProblem({ ...base, version, installed: "24.21.0" }), version).toBeDefined();
  });

  it("where npm installed one: run through npm", () => {
    expect(runtimeProblem({ ...base, version: "20.20.2", installed: "24.21.0" })).toBe(
      "Petstore needs Node.js 24.11 or later, and this is Node.js 20.20.2 (/usr/bin/node): run it through npm (npm start, npm test, npm run cli -- ...), which runs the Node.js 24.21.0 that npm install put in node_modules/.bin.",
    );
  });

  it("where npm would install one but has not (no npm install yet, or --omit=optional): npm install", () => {
    expect(runtimeProblem({ ...base, version: "20.20.2", installed: undefined })).toMatch(
      /: run npm install, which brings Node.js 24\.21\.0 for this machine into node_modules\/\.bin, then/,
    );
  });

  it("where npm has none for the platform: install it, with the way", () => {
    expect(runtimeProblem({ ...base, version: "22.12.0", platform: "darwin-arm64", installed: undefined })).toBe(
      "Petstore needs Node.js 24.11 or later, and this is Node.js 22.12.0 (/usr/bin/node): npm install brings one for linux-x64, darwin-x64 but not for darwin-arm64, so install Node.js 24 yourself (https://nodejs.org/en/download, or `nvm install` in this folder, which reads .nvmrc).",
    );
  });
});

/** A Node older than the minimum on this machine (the system's, outside node_modules/.bin), if there is one. */
function olderNode(): { path: string; version: string } | undefined {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => dir && !dir.includes(`node_modules${path.sep}.bin`));
  for (const dir of [...dirs, "/usr/bin", "/usr/local/bin"]) {
    const file = path.join(dir, "node");
    if (!fs.existsSync(file)) continue;
    const version = spawnSync(file, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout?.trim();
    if (version && runtimeProblem({ version, execPath: file, minimum: manifest.minimum, binaries: {}, platform: "", installed: undefined }))
      return { path: file, version };
  }
  return undefined;
}

const older = olderNode();
// Every entry point an npm script or Playwright's webServer starts with `node --import tsx scripts/x.ts`.
const entries = [
  ...new Set(
    [...Object.values(pkg.scripts as Record<string, string>), fs.readFileSync(path.join(ROOT, "playwright.config.ts"), "utf8")].flatMap((text) =>
      [...text.matchAll(/node --import tsx (scripts\/[\w-]+\.ts)/g)].map((m) => m[1]!),
    ),
  ),
].sort();

describe.skipIf(!older)(`every entry point run directly with the system's older Node (${older?.version ?? "none on this machine"})`, () => {
  it("the list covers the app, the CLI, the test runner, the e2e server and the benchmarks", () => {
    expect(entries).toEqual(
      expect.arrayContaining([
        "scripts/launch.ts",
        "scripts/server.ts",
        "scripts/cli.ts",
        "scripts/with-test-db.ts",
        "scripts/e2e-server.ts",
        "scripts/bench.ts",
        "scripts/lighthouse.ts",
      ]),
    );
  });

  // Minutes, not seconds, allowed: ESM loads an entry's whole import graph (Lighthouse's is large) before
  // the check runs, which takes 20 s and more on a loaded 2-core machine.
  it.each(entries)("%s exits 1 with the sentence, before doing anything", { timeout: 150_000 }, (entry) => {
    // Unreachable databases: were the check ever skipped, the entry fails fast instead of starting something.
    const unreachable = "postgresql://127.0.0.1:9/none";
    const run = spawnSync(older!.path, ["--import", "tsx", entry], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: unreachable, TEST_DATABASE_URL: unreachable, PORT: "9" },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toBe("");
    // The same sentence the unit tests above spell out, for this machine.
    const platform = platformName(process.platform, process.arch);
    expect(run.stderr).toBe(`${runtimeProblem({ version: older!.version, execPath: older!.path, ...manifest, platform, installed: installedVersion })}\n`);
  });
});
