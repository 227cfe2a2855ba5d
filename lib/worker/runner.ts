import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { Logger, run, type Runner, type Task, type TaskList } from "graphile-worker";
import pg from "pg";
import { applicationName, DB_CONNECT_TIMEOUT_MS } from "@/lib/db";
import { env } from "@/lib/env";
import { onShutdown } from "@/lib/lifecycle";
import { logger } from "@/lib/log";
import { ResilientClient } from "@/lib/pg-client";
import { LONG_TASK_NAMES, QUEUE_SCHEMA } from "@/lib/jobs/queue";
import { CRONTAB, taskList } from "@/lib/worker/tasks";
import { metrics } from "@/lib/metrics";
import { cpuUtilisation, type UtilisationSource } from "@/lib/jobs/yield";
import { matchAlerts } from "@/lib/alerts/matching";
import { now as clockNow } from "@/lib/clock";
import { dispatchEvents, requeueDueDeliveries } from "@/lib/webhooks/dispatch";
import { resealStaleSecrets } from "@/lib/webhooks/service";
import { scheduleListingUploads } from "@/lib/listings/uploads/schedule";

// The background work of an app instance: webhook dispatch and delivery,
// alert matching (lib/alerts/matching.ts), and
// the feed's retention sweep. Every instance runs it (scripts/server.ts
// starts it after Next is ready), so `npm start` alone is a complete system.
//
//   events table --NOTIFY petstore_events--> dispatcher (one at a time, across instances)
//     --> webhook_deliveries + graphile-worker jobs (same transaction)
//     --NOTIFY jobs:insert--> a worker on any instance --> one attempt
//
// A tick every second catches what a notification missed: new events, due
// retries, and deliveries whose worker died (docs/decisions/006).
//
// Jobs run on two runners of the one queue: the general one (deliveries,
// mail, the schedule) and one for long work (imports, listing uploads) with
// slots of its own, so no amount of long work, hung or not, can hold the
// slots webhooks and mail need (docs/decisions/021).

/** Jobs run at once per instance by the general runner (every task but the long ones): deliveries (each waits at most 10 s for its receiver), mail, the periodic jobs. */
export const WORKER_CONCURRENCY = 8;
/**
 * Long jobs (imports, listing uploads: LONG_TASK_NAMES) run at once per
 * instance, by a runner of their own beside the general one: however many
 * organisations have long work waiting, and however long it hangs (a listing
 * site's FTP server that never answers), it holds these slots and never the
 * general runner's, so webhooks and mail keep flowing. Each organisation's
 * long work is in its own named queue besides (lib/jobs/queue.ts): one job
 * at a time per organisation across all instances, so one organisation can
 * hold one of these slots at most, and the others' long work goes on in the
 * rest (docs/decisions/021).
 */
export const LONG_WORK_CONCURRENCY = 2;
const TICK_MS = 1_000;
/** At most one dispatch per this many milliseconds per instance: a bound on the latency it adds, and on its queries under load. */
const DISPATCH_GAP_MS = 50;
/**
 * At most one run of alert matching, and of the listing sites' schedule, per this many
 * milliseconds per instance: neither needs dispatch's pace (an alert's email and a site's
 * upload wait seconds to minutes anyway), and under load each ran after nearly every commit
 * (docs/decisions/026).
 */
const QUIET_READER_GAP_MS = 1_000;
const NOTIFY_CHANNEL = "petstore_events";

export interface BackgroundWork {
  /** Stops taking work, hands in-flight attempts back, closes its connections. */
  stop(): Promise<void>;
}

/** graphile-worker's log lines as ours (its routine chatter at debug). */
function queueLogger(): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const fields = { component: "job-queue", ...scope, ...(meta as object) };
    if (level === "error") logger().error(fields, message);
    else if (level === "warning") logger().warn(fields, message);
    else logger().debug(fields, message);
  });
}

/**
 * Runs `work` whenever asked, never twice at once; asks that arrive meanwhile
 * make one more run, at least `gapMs` after the last began. Under load,
 * every commit notifies: the gap lets one run take many events at once
 * instead of one each (a few milliseconds of latency for far fewer queries).
 */
function coalesced(name: string, work: () => Promise<unknown>, gapMs = 0) {
  let running: Promise<void> | undefined;
  let again = false;
  const loop = async () => {
    do {
      again = false;
      const began = performance.now();
      await work().catch((error: unknown) => logger().warn({ err: error, task: name }, "background step failed"));
      const rest = gapMs - (performance.now() - began);
      if (again && rest > 0) await sleep(rest);
    } while (again);
    running = undefined;
  };
  return {
    request() {
      if (running) again = true;
      else running = loop();
    },
    idle: () => running ?? Promise.resolve(),
  };
}

/** LISTEN on a connection of its own, reconnecting after a drop (and then asking for a catch-up). */
function listen(onNotify: () => void, stopped: () => boolean): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  const connect = async () => {
    if (stopped()) return;
    const next = new ResilientClient({
      connectionString: env().DATABASE_URL,
      application_name: applicationName(),
      connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    next.on("notification", onNotify);
    next.on("end", () => {
      if (client === next) client = undefined;
      if (!stopped()) setTimeout(() => void connect(), TICK_MS).unref();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${NOTIFY_CHANNEL}`);
      client = next;
      onNotify();
    } catch {
      await next.end().catch(() => {});
    }
  };
  void connect();
  return { close: async () => void (await client?.end().catch(() => {})) };
}

export type SlotPool = "general" | "long";

/**
 * The task list split between the two runners, each task counting the slot
 * it holds while it runs (the petstore_job_slots metric).
 */
function runnerTasks(all: TaskList): Record<SlotPool, TaskList> {
  const long = new Set<string>(LONG_TASK_NAMES);
  const counted =
    (pool: SlotPool, task: Task): Task =>
    async (payload, helpers) => {
      const slots = metrics().jobSlots;
      slots.inc({ pool, state: "busy" });
      try {
        return await task(payload, helpers);
      } finally {
        slots.dec({ pool, state: "busy" });
      }
    };
  const lists: Record<SlotPool, TaskList> = { general: {}, long: {} };
  for (const [name, task] of Object.entries(all)) {
    const pool = long.has(name) ? "long" : "general";
    lists[pool][name] = counted(pool, task as Task);
  }
  return lists;
}

async function start(shutdown: AbortController, load: UtilisationSource): Promise<{ runners: Runner[]; pool: pg.Pool }> {
  const pool = new pg.Pool({
    connectionString: env().DATABASE_URL,
    // Taken briefly to fetch and complete jobs (attempts use the app's pool), and let go when idle.
    max: WORKER_CONCURRENCY + LONG_WORK_CONCURRENCY,
    application_name: applicationName(),
    connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    Client: ResilientClient,
  });
  // A connection PostgreSQL closes while idle ('error' on the pool) or while
  // checked out (on the client: ResilientClient) never crashes the process;
  // the pool drops it and the queue retries (graphile-worker checks for both).
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const tasks = runnerTasks(taskList({ owner: applicationName(), signal: shutdown.signal, load }));
  const runners: Runner[] = [];
  try {
    // Two runners on one queue: graphile-worker takes for a runner only the
    // jobs of the tasks in its list, so each set of slots runs only its own
    // tasks. The schedule is the general runner's (its jobs are short).
    const common = { pgPool: pool, schema: QUEUE_SCHEMA, noHandleSignals: true, pollInterval: 2_000, logger: queueLogger() };
    runners.push(await run({ ...common, concurrency: WORKER_CONCURRENCY, taskList: tasks.general, crontab: CRONTAB }));
    runners.push(await run({ ...common, concurrency: LONG_WORK_CONCURRENCY, taskList: tasks.long }));
    const slots = metrics().jobSlots;
    slots.inc({ pool: "general", state: "size" }, WORKER_CONCURRENCY);
    slots.inc({ pool: "long", state: "size" }, LONG_WORK_CONCURRENCY);
    return { runners, pool };
  } catch (error) {
    for (const runner of runners) await runner.stop().catch(() => {});
    await pool.end().catch(() => {});
    throw error;
  }
}

/**
 * Starts the instance's background work and registers its stop with graceful
 * shutdown. Returns at once: if the database is not there yet, it keeps
 * trying in the background (the server serves 503s meanwhile).
 */
export function startBackgroundWork(options: { requestsInFlight?: () => number } = {}): BackgroundWork {
  const shutdown = new AbortController();
  // Every attempt in flight listens to it (to be handed back at shutdown).
  setMaxListeners(0, shutdown.signal);
  let stopping = false;
  let started: { runners: Runner[]; pool: pg.Pool } | undefined;
  let listener: { close(): Promise<void> } | undefined;
  let tick: NodeJS.Timeout | undefined;

  // Every commit that writes events notifies; with no endpoint enabled
  // anywhere, nothing waits for them, and the tick moving the dispatch mark
  // along once a second is enough (an endpoint registered meanwhile gets its
  // first events within that second). Known from each dispatch.
  let endpointsEnabled = true;
  const dispatcher = coalesced(
    "webhook dispatch",
    async () => {
      endpointsEnabled = (await dispatchEvents()).listening;
    },
    DISPATCH_GAP_MS,
  );
  const requeue = coalesced("webhook requeue", requeueDueDeliveries);
  // Alerts read the same feed from their own mark (lib/alerts/matching.ts),
  // whether or not any webhook listens. At most one run a second: under
  // load every commit notifies, and a run each 50 ms (dispatch's gap) cost
  // more than a core of the database at 20 writers, with no alert to match
  // (issue 51); a second is well within "as they arrive" (the email goes
  // within seconds). A run that stopped at its bound asks for the next.
  const matcher: ReturnType<typeof coalesced> = coalesced(
    "alert matching",
    async () => {
      if ((await matchAlerts(clockNow())).more) matcher.request();
    },
    QUIET_READER_GAP_MS,
  );
  // Listing uploads too: a change to a listed animal queues its sites' next upload (lib/listings/uploads/schedule.ts).
  const lister = coalesced("listing schedule", scheduleListingUploads, QUIET_READER_GAP_MS);

  // Deliveries yield to this process's requests while the machine is saturated (lib/jobs/yield.ts).
  const load = cpuUtilisation(options.requestsInFlight ?? (() => 0));
  const boot = (async () => {
    for (let attempt = 1; !stopping; attempt++) {
      try {
        started = await start(shutdown, load);
        break;
      } catch (error) {
        logger().warn({ err: error, attempt }, "background work could not start (database unavailable?); retrying");
        await sleep(Math.min(30_000, 1_000 * attempt), undefined, { signal: shutdown.signal }).catch(() => {});
      }
    }
    if (stopping) return;
    await resealStaleSecrets().catch((error: unknown) => logger().error({ err: error }, "could not re-encrypt webhook secrets"));
    listener = listen(
      () => {
        if (endpointsEnabled) dispatcher.request();
        matcher.request();
        lister.request();
      },
      () => stopping,
    );
    tick = setInterval(() => {
      dispatcher.request();
      requeue.request();
      matcher.request();
      lister.request();
    }, TICK_MS);
    tick.unref();
    dispatcher.request();
    requeue.request();
    matcher.request();
    lister.request();
  })();

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(tick);
    // Attempts in flight are cut short and handed back, so another instance
    // takes them over at once instead of waiting for their lease to expire.
    shutdown.abort();
    await boot;
    await Promise.all([dispatcher.idle(), requeue.idle(), matcher.idle(), lister.idle()]);
    await listener?.close();
    await Promise.all(started?.runners.map((runner) => runner.stop()) ?? []);
    await started?.pool.end();
    if (started) {
      const slots = metrics().jobSlots;
      slots.dec({ pool: "general", state: "size" }, WORKER_CONCURRENCY);
      slots.dec({ pool: "long", state: "size" }, LONG_WORK_CONCURRENCY);
    }
    load.stop();
  };
  onShutdown("background work", stop, 0);
  return { stop };
}
