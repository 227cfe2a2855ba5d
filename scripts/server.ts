/**
 * The HTTP server: Next's request handler behind a plain node:http server.
 *
 * It exists for one reason: route handlers cannot see the socket, and
 * `next start` only fills X-Forwarded-For from it when the client did not
 * send one, so a client could choose its own address and dodge the
 * per-address rate limit. Here the socket's address is always written into
 * a header of ours (overwriting anything a client sent) before Next runs.
 */
import http from "node:http";
import next from "next";
import { SOCKET_ADDRESS_HEADER } from "@/lib/http/socket-address";
import { ROOT } from "./database";

const mode = process.argv[2] === "dev" ? "dev" : "start";
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

const app = next({ dev: mode === "dev", dir: ROOT, port, hostname: "localhost" });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  req.headers[SOCKET_ADDRESS_HEADER] = req.socket.remoteAddress ?? "unknown";
  void handle(req, res);
});
// Longer than a typical load balancer's idle timeout, so it closes first.
server.keepAliveTimeout = 65_000;

server.listen(port, hostname, () => {
  console.log(`✓ Ready on http://localhost:${port} (${mode === "dev" ? "development" : "production"})`);
});

let closing = false;
function shutdown() {
  if (closing) return;
  closing = true;
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  // In-flight requests get a few seconds to finish.
  setTimeout(() => process.exit(0), 5_000).unref();
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
