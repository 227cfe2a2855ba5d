/**
 * The HTTP server: Next's request handler behind a plain node:http server.
 *
 * Why not `next start`: route handlers cannot see the socket, and `next
 * start` only fills X-Forwarded-For from it when the client did not send
 * one, so a client could choose its own address and dodge the per-address
 * rate limit. Here the socket's address is always written into a header of
 * ours (overwriting anything a client sent) before Next runs; lib/core/client.ts
 * derives the client's address and origin from it.
 *
 * It answers, in the API's JSON Error shape, what Next cannot route
 * (malformed /v1 URLs, unknown methods, over-long URLs and headers, HTTP
 * the parser rejects): lib/server/gate.ts.
 *
 * It uses every core: WEB_CONCURRENCY workers (node:cluster, default one
 * per core) share the port; the primary only forks, restarts a worker that
 * dies, and passes signals on (scripts/cluster.ts).
 *
 * It also owns the process's end: on SIGTERM or SIGINT, /readyz turns 503,
 * the listener closes, requests in flight finish (at most
 * SHUTDOWN_TIMEOUT_MS), keep-alive connections close as they go idle, then
 * background work (webhook deliveries) is handed back, the database pool and
 * the counter store close and the process exits 0.
 */
import "./require-node";
import cluster from "node:cluster";
import http from "node:http";
import net from "node:net";
import next from "next";
import { disconnectDb } from "@/lib/db";
import { env } from "@/lib/env";
import { isInternalRequestHeader, SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import { closeResources, isDraining, startDraining } from "@/lib/lifecycle";
import { DEMO_STAFF, demoLoginActive } from "@/lib/staff/demo";
import { startBackgroundWork } from "@/lib/worker/runner";
import { HTTP_PARSER_MAX_HEADER_BYTES, answerClientError, checkRequest, isApiRequest, sendRefusal, trackAnswer } from "@/lib/server/gate";
import { answerMetrics, isMetricsRequest, observeRequest } from "@/lib/server/metrics";
import { ApiAwareResponse, keepApiVary } from "@/lib/server/vary";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { runPrimary, workerCount } from "./cluster";
import { ROOT } from "./database";

const mode = process.argv[2] === "dev" ? "dev" : "start";
// Validated once at boot: a bad variable stops the server here, by name,
// with the reason and no stack trace.
const config = (() => {
  try {
    return env();
  } catch (error) {
    console.error(`Refusing to start. ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
})();

// No default credentials in production: a published login must not open a
// real deployment's staff tools (SEED_DEMO_STAFF says a demo is meant).
// Checked once per instance (by the primary when there are workers).
if (cluster.isPrimary && config.NODE_ENV === "production" && !config.SEED_DEMO_STAFF) {
  const active = await demoLoginActive().catch((error: unknown) => {
    logger().warn({ err: error }, "could not check for the demo staff login (database unavailable); starting");
    return false;
  });
  await disconnectDb();
  if (active) {
    console.error(
      `Refusing to start: the staff account ${DEMO_STAFF.email} still has the published demo password. ` +
        `Change it (npm run cli -- staff set-password --email ${DEMO_STAFF.email}) or delete it ` +
        `(npm run cli -- staff delete --email ${DEMO_STAFF.email}); SEED_DEMO_STAFF=true allows it for a demo.`,
    );
    process.exit(1);
  }
}

const workers = mode === "dev" ? 1 : workerCount();
if (cluster.isPrimary && workers > 1) {
  await runPrimary(workers, config.PORT, config.SHUTDOWN_TIMEOUT_MS);
} else {
  await serve();
}

async function serve(): Promise<void> {
  const app = next({ dev: mode === "dev", dir: ROOT, port: config.PORT, hostname: "localhost" });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Made now, not on the first request: a worker must be able to answer the
  // primary's request for its metrics before it has served anything.
  metrics();
  /** Responses being written, so a drain can tell each to close its connection (and deliveries can yield to them). */
  const inFlight = new Set<http.ServerResponse>();

  // Webhook delivery and the feed's sweep run in every instance (every
  // worker); graceful shutdown (below) stops them first, through lib/lifecycle.ts.
  startBackgroundWork({ requestsInFlight: () => inFlight.size });

  // The parser's own ceiling is above the gate's, so the gate can answer
  // over-long URLs (414) and headers (431) itself, in the API's shape.
  const server = http.createServer({ maxHeaderSize: HTTP_PARSER_MAX_HEADER_BYTES, ServerResponse: ApiAwareResponse }, (req, res) => {
    // Bytes the parser cannot read after this request must not get an answer over this one's.
    trackAnswer(req, res);
    observeRequest(req, res);
    if (isMetricsRequest(req)) {
      void answerMetrics(req, res);
      return;
    }
    const refusal = checkRequest(req);
    if (refusal) {
      sendRefusal(req, res, refusal);
      return;
    }
    // Only we set internal headers: a client's copies go, then the socket's address is set.
    for (const name of Object.keys(req.headers)) if (isInternalRequestHeader(name)) delete req.headers[name];
    req.headers[SOCKET_ADDRESS_HEADER] = req.socket.remoteAddress ?? "unknown";
    if (isApiRequest(req)) keepApiVary(res);
    // While draining, every answer closes its connection, so keep-alive
    // clients (a proxy's upstream pool) reconnect to an instance that stays.
    // Saying so in the answer, rather than closing idle sockets under the
    // client, leaves no moment where a request can be sent into a closing one.
    if (isDraining()) res.setHeader("Connection", "close");
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    void handle(req, res);
  });
  // Longer than a typical load balancer's idle timeout, so it closes first.
  server.keepAliveTimeout = 65_000;
  server.on("clientError", answerClientError);

  server.listen(config.PORT, config.HOST, () => {
    // With workers, the primary announces readiness once all of them listen.
    if (cluster.isWorker) return;
    console.log(`✓ Ready on http://localhost:${config.PORT} (${mode === "dev" ? "development" : "production"})`);
  });

  const sleep = (ms: number) => new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms).unref());

  let closing = false;
  async function shutdown(signal: NodeJS.Signals): Promise<void> {
    if (closing) return;
    closing = true;
    const started = Date.now();
    logger().info({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, "shutting down: draining");
    startDraining();

    // Stop accepting connections. Not server.close(): since Node 19 it also
    // closes idle keep-alive connections at once, racing a proxy that is just
    // sending its next request on one (nginx then sees a reset). The net-level
    // close only stops the listener; its callback runs when every connection
    // has ended.
    const closed = new Promise<"closed">((resolve) => net.Server.prototype.close.call(server, () => resolve("closed")));
    // Busy connections close after their answer (Connection: close). Idle
    // ones are left a moment to carry one more request (answered with
    // Connection: close too), then closed on a slow sweep.
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    let sweep: NodeJS.Timeout | undefined;
    const grace = setTimeout(
      () => {
        server.closeIdleConnections();
        sweep = setInterval(() => server.closeIdleConnections(), 1_000);
      },
      Math.min(1_000, config.SHUTDOWN_TIMEOUT_MS),
    );
    const outcome = await Promise.race([closed, sleep(config.SHUTDOWN_TIMEOUT_MS)]);
    clearTimeout(grace);
    clearInterval(sweep);
    if (outcome === "timeout") {
      logger().warn({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, "requests still in flight at the shutdown timeout: closing their connections");
      server.closeAllConnections();
    }

    await closeResources(2_000, (line) => logger().warn(line));
    logger().info({ ms: Date.now() - started }, "shut down");
    process.exit(0);
  }
  // SIGTERM as well as SIGINT: a server started in the background by a
  // non-interactive shell has SIGINT ignored, and orchestrators send SIGTERM.
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
