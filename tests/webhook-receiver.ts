import http from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP receiver on 127.0.0.1 for the webhook tests (Vitest and
// Playwright): it records every request and answers as the test scripts it.

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What to answer: a status (and body), or "hang" (never answer). */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  connections: () => number;
  /** Answers for the next requests, in order; after them, `fallback`. */
  script(...answers: Answer[]): void;
  fallback: Answer;
  /** Resolves with the first request (already received or to come) matching `match`. */
  waitFor(match: (r: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest>;
  /** Resolves once `count` requests match. */
  waitForCount(match: (r: ReceivedRequest) => boolean, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = "/hook"): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const queue: Answer[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const answer = queue.shift() ?? receiver.fallback;
      if (answer === "hang") hanging.add(res);
      else {
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "ok");
      }
      for (const wake of waiters) wake();
    });
  });
  server.keepAliveTimeout = 2_000;
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    requests,
    connections: () => connections,
    fallback: { status: 200 },
    script: (...answers) => void queue.push(...answers),
    waitFor: async (match, timeoutMs) => (await receiver.waitForCount(match, 1, timeoutMs))[0]!,
    waitForCount: (match, count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.filter(match);
          if (found.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: ${requests.filter(match).length} of ${count} expected requests within ${timeoutMs} ms (${requests.length} in all)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/** The event a delivery carried. */
export function eventOf(request: ReceivedRequest): { id: string; type: string; createdAt: string; data: Record<string, unknown> } {
  return JSON.parse(request.body);
}
