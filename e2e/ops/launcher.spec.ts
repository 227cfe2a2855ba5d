import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/database";

// The README's first command, as an operator runs it: `npm start` on the
// embedded database (DATABASE_URL unset), Ctrl-C, and a second start that
// reuses the data. Uses a cluster of its own under .data/ so it cannot touch
// a developer's database, and the build the suite's server already made.

const dataDir = path.resolve(".data", "pg-launcher-test");
// Ports free at the time, not fixed ones: a fixed port was once held by a
// server an interrupted run had left behind, and every start here failed.
let appPort = 0;
let env: NodeJS.ProcessEnv = process.env;
test.beforeAll(async () => {
  appPort = await freePort();
  env = {
    ...process.env,
    // The operator's shell: npm and the system's Node (older, on these
    // machines), without the node_modules/.bin this suite runs under.
    PATH: (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => !dir.includes(`node_modules${path.sep}.bin`))
      .join(path.delimiter),
    DATABASE_URL: "",
    EMBEDDED_PG_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    PORT: String(appPort),
    LOG_LEVEL: "warn",
  };
});

function postgresRunning(): boolean {
  const ps = spawnSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return ps.stdout.split("\n").some((line) => line.includes("postgres") && line.includes(dataDir));
}

function start(): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  let output = "";
  const child = spawn("npm", ["start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Petstore is up")) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  return { child, output: () => output, ready };
}

/** Ctrl-C, as a terminal sends it; resolves when npm start has exited. */
async function interrupt(child: ChildProcess): Promise<number | null> {
  // The start-up listener would treat this exit as a crash: drop it first.
  child.removeAllListeners("exit");
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGINT");
  return exited;
}

test.describe.configure({ timeout: 180_000 });

test.beforeAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
test.afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test("npm start serves on the embedded database and the project's Node, stops cleanly on Ctrl-C, and reuses its data", async ({ request }) => {
  const first = start();
  await first.ready;
  // On the Node npm install brought (the one this suite runs on), whatever the shell's is.
  expect(first.output()).toContain(`Petstore is up on Node.js ${process.versions.node}:`);
  expect(first.output()).toMatch(/Seed: 6 categories, 64 animals added/);
  expect(first.output()).toContain("Demo staff login: demo@petstore.test");
  const page = await request.get(`http://127.0.0.1:${appPort}/`);
  expect(page.status()).toBe(200);
  expect(await page.text()).toContain("Petstore");
  // A local trial is reached by any name over plain HTTP (a LAN address
  // too): its cookies are not Secure, so browsers keep them there.
  // (Beside it, the language the page was shown in: petstore_locale.)
  const session = page.headersArray().find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("petstore_session="));
  expect(session?.value).toMatch(/^petstore_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Expires=[^;]+$/);
  expect(postgresRunning()).toBe(true);

  await interrupt(first.child);
  expect(postgresRunning()).toBe(false);

  const second = start();
  await second.ready;
  // Same data: nothing seeded twice.
  expect(second.output()).toMatch(/Seed: 6 categories, 0 animals added/);
  await interrupt(second.child);
  expect(postgresRunning()).toBe(false);
});

test("the CLI's db commands work on the embedded database", () => {
  const cli = (...args: string[]) => spawnSync("npm", ["run", "-s", "cli", "--", ...args], { env, encoding: "utf8", timeout: 120_000 });
  const seeded = cli("db", "seed");
  expect(seeded.status, seeded.stderr).toBe(0);
  expect(seeded.stdout).toMatch(/Seeded 6 categories, (64|0) animals added/);
  const again = cli("db", "seed");
  expect(again.stdout).toContain("0 animals added");

  const refused = cli("db", "reset");
  expect(refused.status).not.toBe(0);
  expect(refused.stderr).toContain("--yes");

  const reset = cli("db", "reset", "--yes");
  expect(reset.status, reset.stderr).toBe(0);
  expect(cli("db", "migrate").status).toBe(0);
  expect(postgresRunning()).toBe(false);
});

test("a port another program holds is named, with the setting that moves it", async () => {
  const squatter = net.createServer();
  await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
  const { port } = squatter.address() as net.AddressInfo;
  try {
    const run = spawnSync("npm", ["run", "-s", "cli", "--", "db", "migrate"], {
      env: { ...env, EMBEDDED_PG_PORT: String(port) },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already taken`);
    expect(run.stderr).toContain("EMBEDDED_PG_PORT");
  } finally {
    squatter.close();
  }
});
