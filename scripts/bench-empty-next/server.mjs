// Serves the empty app (./app) as scripts/server.ts serves the project's: Next's
// request handler behind node:http, one process per worker (node:cluster,
// WEB_CONCURRENCY or one per core), so the bench compares like with like.
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import next from "next";

const port = Number(process.env.EMPTY_NEXT_PORT);
const workers = Number(process.env.WEB_CONCURRENCY || os.availableParallelism());

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    process.exit(0);
  });
} else {
  const app = next({ dev: false, dir: path.dirname(new URL(import.meta.url).pathname) });
  await app.prepare();
  const handle = app.getRequestHandler();
  http.createServer((req, res) => void handle(req, res)).listen(port, "127.0.0.1", () => console.log(`Empty app ready on ${port}`));
  process.on("SIGTERM", () => process.exit(0));
}
