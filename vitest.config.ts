import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.{ts,tsx}", "scripts/**/*.test.ts", "prisma/**/*.test.ts", "tests/**/*.test.ts"],
    globalSetup: ["./tests/global-setup.ts"],
    setupFiles: ["./tests/setup.ts"],
    // Two files at a time (the machines this runs on have 2 cores; most of a
    // file's time is waiting on PostgreSQL), each worker on a database of its
    // own (tests/global-setup.ts) that every file truncates when it starts.
    // Tests inside a file run in order.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
