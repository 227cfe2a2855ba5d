import { spawnSync } from "node:child_process";
import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";

export interface CliRun {
  /** Variables on top of this process's (a test's own database, say). */
  env?: Record<string, string | undefined>;
  /** Piped to standard input (how passwords arrive). */
  input?: string;
}

/** Runs the operators' CLI as an operator would: against the end-to-end database unless `env` names another. */
export function runCli(args: string[], { env, input }: CliRun = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
    env: { ...process.env, ...env },
    input,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export const cli = (...args: string[]) => runCli(args);

/**
 * Issues an API key with the CLI; the key is the last line of its standard
 * output. The first organisation's unless `options` say whose (the suite's
 * database holds several, so the CLI needs to be told).
 */
export function createKey(name: string, ...options: string[]): string {
  const whose = options.includes("--org") || options.includes("--platform") ? [] : ["--org", "1"];
  const result = cli("keys", "create", "--name", name, ...whose, ...options);
  expect(result.status, result.stderr).toBe(0);
  const key = result.stdout.trim().split("\n").at(-1)!;
  expect(key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
  return key;
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** An animal as POST /v1/pets answers it; a spec that reads more of it names its own shape (`createPet<ApiPet>`). */
export interface CreatedPet {
  id: number;
  name: string;
  version: number;
}

/** Adds an animal through POST /v1/pets as `key` (category 1 unless `data` says another), and answers it (201). */
export async function createPet<T extends { id: number } = CreatedPet>(request: APIRequestContext, key: string, data: Record<string, unknown>): Promise<T> {
  const res = await request.post("/v1/pets", { headers: bearer(key), data: { categoryId: 1, ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as T;
}

export async function expectApiError(res: APIResponse, status: number, code: string): Promise<void> {
  expect(res.status()).toBe(status);
  expect(res.headers()["content-type"]).toContain("application/json");
  const body = await res.json();
  expect(body).toMatchObject({ code, status });
  expect(typeof body.message).toBe("string");
}
