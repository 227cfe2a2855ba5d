import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { withDatabaseName } from "./scripts/database";

// The end-to-end suite runs against a production build (`next start` through
// the launcher) on a database of its own, recreated for every run.
const server = process.env.TEST_DATABASE_URL;
if (!server) throw new Error("TEST_DATABASE_URL is unset: run the suite through `npm run test:e2e`.");
const databaseUrl = withDatabaseName(server, process.env.E2E_DATABASE ?? "petstore_e2e");
const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${port}`;
// Test helpers in e2e/ (creating API keys, staff) reach the same database.
process.env.DATABASE_URL = databaseUrl;
process.env.E2E_BASE_URL = baseURL;
// Production servers need a session secret; every server the suite starts
// (the main one, the deployment topology's instances) shares this one.
process.env.SESSION_SECRET ??= randomBytes(48).toString("base64url");
// The suite signs in with the demo staff login, on a production build: the
// explicit flag that allows it outside local setups (lib/staff/demo.ts).
process.env.SEED_DEMO_STAFF ??= "true";

// Per database, so two runs on one machine do not wipe each other's artifacts.
const outputDir = `test-results/${process.env.E2E_DATABASE ?? "petstore_e2e"}`;
// The emails the server sends, as the suite's own SMTP server received them
// (scripts/e2e-mail.ts): e2e/mailbox.ts reads them. Playwright empties the
// output folder before it starts the server.
process.env.E2E_MAILBOX = path.resolve(outputDir, "mailbox");

// Debian's Chromium where it is installed (CI and these machines);
// Playwright's own browser otherwise.
const chromium = process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: "./e2e",
  outputDir,
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: chromium ? { executablePath: chromium } : {},
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "node --import tsx scripts/e2e-server.ts",
    url: `${baseURL}/`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // PUBLIC_BASE_URL: a production server that sends email must have it (the links in emails are built on it,
    // never on a request's Host); the server still finds its own origin from each request for everything else,
    // which e2e/ui/any-host.spec.ts checks by reaching it as localhost and as petstore.internal.
    // WEBHOOK_ALLOW_PRIVATE: the suite's webhook receivers listen on 127.0.0.1, which is refused unless allowed (SSRF).
    // SMTP_URL and MAIL_FROM are set by scripts/e2e-server.ts, which starts the mail server (on a free port) that writes to E2E_MAILBOX.
    env: {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_BASE_URL: `${baseURL}/v1`,
      LOG_LEVEL: "warn",
      SESSION_SECRET: process.env.SESSION_SECRET,
      SEED_DEMO_STAFF: "true",
      WEBHOOK_ALLOW_PRIVATE: "true",
      E2E_MAILBOX: process.env.E2E_MAILBOX,
    },
    // The launcher stops next and then PostgreSQL in order on SIGTERM;
    // Playwright's default SIGKILL would orphan them.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
