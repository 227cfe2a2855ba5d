import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/database";
import { freshDatabase } from "../deploy/topology";
import { runCli } from "../helpers";

// No default credentials in production, and staff accounts managed from the
// command line with passwords that never appear in the process list.

test.describe.configure({ mode: "serial", timeout: 180_000 });

let url: string;
const env = (extra: Record<string, string> = {}) => ({ ...process.env, DATABASE_URL: url, LOG_LEVEL: "warn", ...extra });

/** The CLI as an operator runs it, on this file's database; `input` is piped to standard input (how passwords arrive). */
const cli = (args: string[], input?: string) => runCli(args, { env: { DATABASE_URL: url, LOG_LEVEL: "warn" }, input });

/** Starts a command and resolves with its exit code, or "ready" once the server announces itself (then stops it). */
function runUntilReady(command: string, args: string[], extra: Record<string, string>): Promise<{ outcome: "ready" | number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: env(extra), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready on")) {
        child.removeAllListeners("exit");
        child.once("exit", () => resolve({ outcome: "ready", output }));
        child.kill("SIGTERM");
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => resolve({ outcome: code, output }));
  });
}

async function signIn(port: number, email: string, password: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

test.beforeAll(async () => {
  // Seeded as a demo deployment is (SEED_DEMO_STAFF, as the suite sets it): the demo login exists.
  url = await freshDatabase(`${process.env.E2E_DATABASE ?? "petstore_e2e"}_accounts`);
});

test("npm start with DATABASE_URL in production refuses to start while the demo password works", async () => {
  const port = await freePort();
  const { outcome, output } = await runUntilReady("npm", ["start"], { PORT: String(port), SEED_DEMO_STAFF: "" });
  expect(outcome, output).toBe(1);
  expect(output).toContain("Refusing to start: the staff account demo@petstore.test still has the published demo password");
  expect(output).not.toContain("Demo staff login: demo@petstore.test / adopt-a-pet-demo");
});

test("staff set-password (from standard input) ends the demo password, and the server starts", async () => {
  const listed = cli(["staff", "list"]);
  expect(listed.stdout).toMatch(/demo@petstore\.test.*DEMO PASSWORD/);

  const changed = cli(["staff", "set-password", "--email", "demo@petstore.test"], "a brand new long password\n");
  expect(changed.status, changed.stderr).toBe(0);
  expect(cli(["staff", "list"]).stdout).not.toContain("DEMO PASSWORD");

  const port = await freePort();
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts", "start"], {
    env: env({ PORT: String(port), NODE_ENV: "production", SEED_DEMO_STAFF: "" }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on("data", (c: Buffer) => c.toString().includes("Ready on") && resolve());
    server.once("exit", (code) => reject(new Error(`server exited (${code})`)));
  });
  try {
    expect(await signIn(port, "demo@petstore.test", "adopt-a-pet-demo")).toBe(401);
    expect(await signIn(port, "demo@petstore.test", "a brand new long password")).toBe(200);
  } finally {
    server.removeAllListeners("exit");
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
});

test("staff create, list and delete; passwords never come from arguments", async () => {
  // The seed's demo shelters make several organisations: say whose the account is.
  const created = cli(["staff", "create", "--email", "Desk@Shelter.example", "--org", "1"], "correct horse battery\n");
  expect(created.status, created.stderr).toBe(0);
  expect(created.stdout).toMatch(/Created staff account \d+ for desk@shelter\.example \(organisation 1\)\./);
  expect(cli(["staff", "list"]).stdout).toContain("desk@shelter.example");

  const tooShort = cli(["staff", "create", "--email", "short@shelter.example", "--org", "1"], "short\n");
  expect(tooShort.status).not.toBe(0);
  expect(tooShort.stderr).toContain("at least 12 characters");
  const asArgument = cli(["staff", "create", "--email", "arg@shelter.example", "--org", "1", "--password", "in the process list"]);
  expect(asArgument.status).not.toBe(0);
  expect(asArgument.stderr).toMatch(/unknown option '--password'/);

  expect(cli(["staff", "delete", "--email", "desk@shelter.example"]).status).toBe(0);
  expect(cli(["staff", "list"]).stdout).not.toContain("desk@shelter.example");
  const again = cli(["staff", "delete", "--email", "desk@shelter.example"]);
  expect(again.status).not.toBe(0);
  expect(again.stderr).toContain("There is no staff account for desk@shelter.example");
});

test("without SEED_DEMO_STAFF, seeding creates no demo login", async () => {
  // `db migrate` seeds the empty database, as a release's first deploy does.
  const fresh = await freshDatabase(`${process.env.E2E_DATABASE ?? "petstore_e2e"}_accounts_plain`, { SEED_DEMO_STAFF: "" });
  const seeded = runCli(["db", "seed"], { env: { DATABASE_URL: fresh, SEED_DEMO_STAFF: "" } });
  expect(seeded.status, seeded.stderr).toBe(0);
  expect(seeded.stdout).toMatch(/Seeded 6 categories/);
  expect(seeded.stdout).not.toContain("Demo staff login");
  const listed = runCli(["staff", "list"], { env: { DATABASE_URL: fresh } });
  expect(listed.stdout).not.toContain("demo@petstore.test");
});

test("staff lockouts and unlock", async () => {
  const port = await freePort();
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/server.ts", "start"], {
    env: env({ PORT: String(port), NODE_ENV: "production", SEED_DEMO_STAFF: "true" }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => server.stdout!.on("data", (c: Buffer) => c.toString().includes("Ready on") && resolve()));
  try {
    for (let i = 0; i < 5; i++) expect(await signIn(port, "demo@petstore.test", "wrong password")).toBe(401);
    expect(await signIn(port, "demo@petstore.test", "a brand new long password")).toBe(429);
    const lockouts = cli(["staff", "lockouts"]);
    expect(lockouts.stdout).toMatch(/demo@petstore\.test from ip:127\.0\.0\.1\tlocked until /);
    const lifted = cli(["staff", "unlock", "--email", "demo@petstore.test"]);
    expect(lifted.stdout).toContain("Lifted 1 lock-out record.");
    expect(await signIn(port, "demo@petstore.test", "a brand new long password")).toBe(200);
  } finally {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
});
