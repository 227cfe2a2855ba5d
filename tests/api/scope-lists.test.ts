import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KEY_SCOPES } from "@/lib/keys/schemas";
import { buildOpenApiDocument } from "@/lib/openapi/document";

// One list of key scopes, the one the API checks (KEY_SCOPES): the CLI's
// help, the document and the docs show it whole, so a scope added to it
// (listings:manage once was missing from the help) needs no other change.

const ROOT = process.cwd();

describe("the key scopes", () => {
  it("`keys create --help` offers every scope a key can hold", () => {
    const help = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "cli.ts"), "keys", "create", "--help"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(help.status, help.stderr).toBe(0);
    const offered = help.stdout.replace(/\s+/g, "");
    for (const scope of KEY_SCOPES) expect(offered, scope).toContain(scope);
  });

  it("the document's bearerAuth names every scope, with what it allows in x-scopes", () => {
    const scheme = (
      buildOpenApiDocument().components?.securitySchemes as unknown as Record<string, { description: string; "x-scopes": Record<string, string> }>
    ).bearerAuth!;
    for (const scope of KEY_SCOPES) expect(scheme.description).toContain(`\`${scope}\``);
    expect(Object.keys(scheme["x-scopes"])).toEqual([...KEY_SCOPES]);
  });

  it("the staff keys page draws its checkboxes from the list", () => {
    const form = fs.readFileSync(path.join(ROOT, "components", "staff", "new-key-form.tsx"), "utf8");
    expect(form).toMatch(/KEY_SCOPES\.map\(/);
    // No hand-kept list of labels beside it.
    expect(form.match(/"[a-z]+:(?:read|write|manage)"/g) ?? []).toEqual(['"pets:read"', '"pets:write"']);
  });

  it("no doc keeps a list of its own: a line naming several scopes names them all", () => {
    const docs = [
      "README.md",
      ...fs
        .readdirSync(path.join(ROOT, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => path.join("docs", f)),
    ];
    const partial: string[] = [];
    for (const file of docs) {
      fs.readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          // A command that issues a key picks its scopes: not a list of them.
          if (line.includes("--scopes")) return;
          const named = KEY_SCOPES.filter((scope) => line.includes(scope));
          if (named.length >= 3 && named.length < KEY_SCOPES.length) partial.push(`${file}:${i + 1}: ${line.slice(0, 120)}`);
        });
    }
    expect(partial).toEqual([]);
  });
});
