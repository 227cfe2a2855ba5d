import { Writable } from "node:stream";
import { afterAll, beforeAll, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { logger, setLogDestination } from "@/lib/log";

/**
 * Every log line the app writes while the calling test file runs, at level
 * trace, for tests of what logs must never hold. Call it at the top level of
 * the file, before its own hooks: the lines are captured from before its
 * first hook to after its last one, and the environment is restored.
 */
export function captureLogLines(): { lines: string[]; since: (from: number) => string[] } {
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  beforeAll(() => {
    vi.stubEnv("LOG_LEVEL", "trace");
    resetEnvCache();
    setLogDestination(capture);
  });
  afterAll(() => {
    setLogDestination(undefined);
    vi.unstubAllEnvs();
    resetEnvCache();
  });
  return {
    lines,
    /** The lines written from index `from` on, once the logger has written what it holds. */
    since: (from) => {
      logger().flush();
      return lines.slice(from);
    },
  };
}
