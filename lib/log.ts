import pino, { type Logger } from "pino";
import { env } from "@/lib/env";

// Structured JSON lines on stdout, one per event, each request's lines
// carrying its requestId so one grep follows a request end to end.

let instance: Logger | undefined;
let destination: pino.DestinationStream | undefined;

// What a database error carries besides its code and message: PostgreSQL's
// DETAIL holds the row a constraint refused ("Failing row contains (…)",
// "Key (email)=(…) already exists"), and so an alert's address, a token's
// hash, an applicant's name; WHERE and the internal query can hold values
// too. A log line may travel far (collectors, tickets): these never reach
// one, whichever field the error is logged under, however deep (Prisma
// wraps the driver's error in `meta`, errors wrap others in `cause`).
const DATABASE_DETAIL_KEYS = new Set(["detail", "where", "internalQuery"]);
// Quoted in another text (a message that repeats the detail): the rest of that text goes, as values may hold anything.
const ROW_IN_TEXT: [RegExp, string][] = [
  [/Failing row contains [\s\S]*/g, "Failing row contains [redacted]"],
  [/Key \(([^)]*)\)=\([\s\S]*/g, "Key ($1)=[redacted]"],
];
const MAX_DEPTH = 8;

function scrubText(text: string): string {
  return ROW_IN_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** A copy of a log field without database error details (the original, an error the code may still use, is left as it is). */
export function scrubDatabaseDetails(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => scrubDatabaseDetails(v, depth + 1));
  // An Error's message and stack are not enumerable: serialised first, as pino does for `err`.
  const plain: Record<string, unknown> =
    value instanceof Error ? (pino.stdSerializers.err(value) as unknown as Record<string, unknown>) : (value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(plain)) {
    if (DATABASE_DETAIL_KEYS.has(key)) continue;
    out[key] = scrubDatabaseDetails(v, depth + 1);
  }
  return out;
}

export function logger(): Logger {
  instance ??= pino(
    {
      level: env().LOG_LEVEL,
      base: { service: "petstore" },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Errors keep their message, code and stack for operators, never a row's values.
      serializers: { err: (err: unknown) => scrubDatabaseDetails(err), error: (err: unknown) => scrubDatabaseDetails(err) },
      // Every other field too: an error logged under any name, or its text inside another.
      formatters: { log: (fields) => scrubDatabaseDetails(fields) as Record<string, unknown> },
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
