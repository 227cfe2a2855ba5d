// A job worker alone in a process of its own, as every server runs it
// (lib/worker/runner.ts startBackgroundWork), for tests that kill one midway
// (tests/api/imports-crash.test.ts). It runs until it is killed.
import { startBackgroundWork } from "@/lib/worker/runner";

startBackgroundWork();
setInterval(() => {}, 60_000);
process.stdout.write("worker started\n");
