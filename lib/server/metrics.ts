import { createHash, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { env } from "@/lib/env";
import { routeTemplate } from "@/lib/server/route-template";
import { logger } from "@/lib/log";
import { CONTENT_TYPE, instanceExposition, metrics } from "@/lib/metrics";

// The HTTP server's side of the metrics (scripts/server.ts): every request
// observed by route template, method and status, and GET /metrics answered
// before Next sees it: no session, no rate limit, no API key involved.

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Counts this request and its duration when its answer ends (or its connection does). */
export function observeRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
  const started = process.hrtime.bigint();
  let done = false;
  const record = () => {
    if (done) return;
    done = true;
    const route = routeTemplate(req.url ?? "/");
    const method = METHODS.has(req.method ?? "") ? req.method! : "other";
    // An answer cut off before its head was sent is counted as 499 (client gone), as nginx logs it.
    const status = res.headersSent ? String(res.statusCode) : "499";
    const m = metrics();
    m.httpRequests.inc({ route, method, status });
    m.httpDuration.observe({ route, method }, Number(process.hrtime.bigint() - started) / 1e9);
  };
  res.once("finish", record);
  res.once("close", record);
}

export function isMetricsRequest(req: http.IncomingMessage): boolean {
  const url = req.url ?? "/";
  return url === "/metrics" || url.startsWith("/metrics?");
}

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Whether the request carries `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time). */
function authorised(req: http.IncomingMessage, token: string): boolean {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? "");
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

function plain(res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...headers });
  res.end(text);
}

/**
 * GET /metrics for Prometheus: 404 while METRICS_TOKEN is unset (there is
 * nothing here), 401 without the right bearer token, else the whole
 * instance's metrics (all workers).
 */
export async function answerMetrics(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const token = env().METRICS_TOKEN;
  if (!token) return plain(res, 404, "Not found.\n");
  if (req.method !== "GET" && req.method !== "HEAD") return plain(res, 405, "Only GET.\n", { Allow: "GET, HEAD" });
  if (!authorised(req, token))
    return plain(res, 401, "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.\n", { "WWW-Authenticate": 'Bearer realm="metrics"' });
  try {
    const body = await instanceExposition();
    res.writeHead(200, { "Content-Type": CONTENT_TYPE, "Cache-Control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : body);
  } catch (error) {
    logger().error({ err: error }, "metrics: could not gather them");
    plain(res, 503, "The metrics could not be gathered just now.\n", { "Retry-After": "5" });
  }
}
