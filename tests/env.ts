import { afterEach, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";

/**
 * For a test file whose tests each run under other settings: returns
 * `configure`, which sets variables (undefined removes one) and makes the app
 * read its environment again; after every test the file's own settings are back.
 */
export function configurableEnv(): (vars: Record<string, string | undefined>) => void {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvCache();
  });
  return (vars) => {
    for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
    resetEnvCache();
  };
}
