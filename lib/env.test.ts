import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

// Settings whose defaults are security decisions: what a server does when
// the operator says nothing, and what it refuses to start without.

const SECRET = "a-production-session-secret-of-32-characters-or-more";

describe("PUBLIC_BASE_URL", () => {
  it("is required in production when mail is configured: the links in emails are built on it, never on a request's Host", () => {
    expect(() => parseEnv({ NODE_ENV: "production", SESSION_SECRET: SECRET, SMTP_URL: "smtp://mail.internal:25" })).toThrow(
      /PUBLIC_BASE_URL: is required in production when SMTP_URL is set/,
    );
    expect(
      parseEnv({ NODE_ENV: "production", SESSION_SECRET: SECRET, SMTP_URL: "smtp://mail.internal:25", PUBLIC_BASE_URL: "https://api.shelter.example/v1" })
        .PUBLIC_BASE_URL,
    ).toBe("https://api.shelter.example/v1");
    // Without mail there are no links to build: a server reached by many names needs none.
    expect(() => parseEnv({ NODE_ENV: "production", SESSION_SECRET: SECRET })).not.toThrow();
    // Outside production mail links fall back to this server's own address (lib/mail/links.ts).
    expect(() => parseEnv({ NODE_ENV: "development", SMTP_URL: "smtp://127.0.0.1:1025" })).not.toThrow();
  });

  it("a production server with mail and without it does not start, and says why", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/server.ts", "start"], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        SESSION_SECRET: SECRET,
        SMTP_URL: "smtp://127.0.0.1:9",
        DATABASE_URL: "postgresql://127.0.0.1:9/none",
        PORT: "9",
      },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("PUBLIC_BASE_URL: is required in production when SMTP_URL is set");
    // One clear message, not a stack trace.
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("WEBHOOK_ALLOW_PRIVATE", () => {
  it.each(["development", "test", "production"] as const)(
    "is off by default in %s: webhooks go to public addresses unless the operator says otherwise",
    (NODE_ENV) => {
      expect(parseEnv({ NODE_ENV, SESSION_SECRET: SECRET }).WEBHOOK_ALLOW_PRIVATE).toBe(false);
      expect(parseEnv({ NODE_ENV, SESSION_SECRET: SECRET, WEBHOOK_ALLOW_PRIVATE: "true" }).WEBHOOK_ALLOW_PRIVATE).toBe(true);
    },
  );
});
