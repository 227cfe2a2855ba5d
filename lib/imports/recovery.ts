import { logger } from "@/lib/log";
import * as queries from "@/lib/imports/queries";

// After a crash (issue 48). A process killed while it runs an import leaves
// the import "running", and its job locked by a worker that no longer
// exists: graphile-worker frees such jobs only after four hours, and until
// then the organisation's queue of long work is held too (no import nor
// upload for that shelter). The run's lease says whether anyone still runs
// it: renewed every quarter of IMPORT_LEASE_SECONDS, expired only when its
// process is gone or stalled past it. So, every minute (the
// recover-long-work job, lib/worker/tasks.ts): an import whose lease has
// expired gets its job back from the dead worker and runs again at once (a
// new run starts over and finds the animals the first one made), and an
// import that nothing will run again (its job gone or out of attempts) is
// marked failed with a report entry saying so. Either within a minute of
// the lease's end. A stalled run that wakes up finds its lease taken and
// stops writing (lib/imports/run.ts).

/** What one pass did: imports handed back to the queue, and imports marked failed. */
export interface Recovered {
  resumed: number[];
  failed: number[];
}

export async function recoverStalledImports(): Promise<Recovered> {
  const recovered: Recovered = { resumed: [], failed: [] };
  for (const stalled of await queries.findStalledImports()) {
    const id = Number(stalled.id);
    if (stalled.lockedBy) await queries.unlockWorker(stalled.lockedBy);
    if (stalled.noRetry) {
      const message =
        "The import stopped without finishing (the process running it ended, and its job has no attempts left); the rows counted above were imported. Import the file again to finish it.";
      if (await queries.failStalled(stalled.id, message)) recovered.failed.push(id);
      continue;
    }
    if (stalled.jobId !== null) await queries.runJobNow(stalled.jobId);
    recovered.resumed.push(id);
  }
  if (recovered.resumed.length || recovered.failed.length) logger().warn({ ...recovered }, "imports left by a stopped run: resumed or marked failed");
  return recovered;
}
