import { spawnSync } from "node:child_process";
import { expect, type APIResponse } from "@playwright/test";

/** Runs the operators' CLI against the end-to-end database, as an operator would. */
export function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
    env: { ...process.env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Issues an API key with the CLI; the key is the last line of its standard output. */
export function createKey(name: string, ...options: string[]): string {
  const result = cli("keys", "create", "--name", name, ...options);
  expect(result.status, result.stderr).toBe(0);
  const key = result.stdout.trim().split("\n").at(-1)!;
  expect(key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
  return key;
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

export async function expectApiError(res: APIResponse, status: number, code: string): Promise<void> {
  expect(res.status()).toBe(status);
  expect(res.headers()["content-type"]).toContain("application/json");
  const body = await res.json();
  expect(body).toMatchObject({ code, status });
  expect(typeof body.message).toBe("string");
}
