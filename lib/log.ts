import pino, { type Logger } from "pino";
import { env } from "@/lib/env";

// Structured JSON lines on stdout, one per event, each request's lines
// carrying its requestId so one grep follows a request end to end.

let instance: Logger | undefined;
let destination: pino.DestinationStream | undefined;

export function logger(): Logger {
  instance ??= pino(
    {
    level: env().LOG_LEVEL,
    base: { service: "petstore" },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Defence in depth: even if a header object is logged by mistake, the
    // credential in it is not written out.
      redact: {
        paths: ["req.headers.authorization", "req.headers.cookie", "*.authorization", "*.cookie", "*.password", "*.headers.authorization", "*.headers.cookie"],
        censor: "[redacted]",
      },
    },
    // Written asynchronously (a request never waits for the terminal or the
    // log collector; lines written while one write is in flight go out
    // together), and flushed when the process exits (pino does that).
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
  return instance;
}

/** Test hook: write log lines to `stream` (undefined: standard output again), at the current LOG_LEVEL. */
export function setLogDestination(stream: pino.DestinationStream | undefined): void {
  instance?.flush?.();
  destination = stream;
  instance = undefined;
}
