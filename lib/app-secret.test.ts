import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { localSecret } from "@/lib/app-secret";

// A local setup without SESSION_SECRET (npm run serve, the CLI, a script)
// keys what it seals and hashes with a secret of this install's own: random,
// made once, kept where the launcher keeps it, readable by its owner only.

const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), "petstore-secret-"));

describe("the per-install secret", () => {
  it("is made once, random, 64 characters, readable by its owner only, and the same on every later read", () => {
    const file = path.join(scratch(), ".data", "session-secret");
    const first = localSecret(file);
    expect(first).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(localSecret(file)).toBe(first);
    expect(localSecret(path.join(scratch(), "session-secret"))).not.toBe(first);
  });

  it("processes starting together agree on one", async () => {
    const file = path.join(scratch(), "session-secret");
    const script = `import { localSecret } from "@/lib/app-secret"; console.log(localSecret(${JSON.stringify(file)}));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
        let out = "";
        child.stdout.on("data", (c: Buffer) => (out += c.toString()));
        child.once("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
      });
    const secrets = await Promise.all([run(), run(), run(), run()]);
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toBe(fs.readFileSync(file, "utf8"));
  }, 60_000);
});
