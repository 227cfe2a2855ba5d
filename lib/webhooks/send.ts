import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { AttemptError } from "@/lib/webhooks/schemas";
import { checkOutboundTarget, OutboundUrlError, type CheckedTarget, type GuardOptions } from "@/lib/outbound/address-guard";

// One HTTP attempt at a webhook receiver. A 2xx within 10 seconds is
// success; anything else is a failure, classified for the deliveries log.
// Redirects are not followed (a 3xx is a failure like any other status), at
// most 4 kB of the answer is kept, and the connection goes to the address
// the URL guard checked, not to a fresh DNS answer.

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_MAX = 4096;
const USER_AGENT = "Petstore-Webhooks/1.0 (+https://www.standardwebhooks.com/)";

export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  ok: boolean;
  statusCode: number | null;
  error: AttemptError | null;
  errorDetail: string | null;
  responseBody: string | null;
}

export interface SendOptions {
  allowPrivate: boolean;
  /** Aborts the attempt (graceful shutdown); it is then recorded as `shutdown`. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** For tests: resolve host names another way (see lib/outbound/address-guard.ts). */
  resolve?: GuardOptions["resolve"];
}

class AttemptFailure extends Error {
  constructor(
    readonly error: AttemptError,
    message: string,
  ) {
    super(message);
  }
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|EPROTO$)/;

/** A Node network error as one of the log's error kinds. */
export function classifyError(error: unknown): { error: AttemptError; detail: string } {
  if (error instanceof AttemptFailure) return { error: error.error, detail: error.message };
  // One kind and the guard's one message, whether the name stopped resolving
  // or now resolves inside: the deliveries list is read by the endpoint's
  // owner, who must not learn which internal names exist (the guard logs the difference).
  if (error instanceof OutboundUrlError) return { error: "address_not_allowed", detail: error.message };
  const code = (error as { code?: string }).code ?? "";
  const message = error instanceof Error ? error.message : String(error);
  const detail = `${code ? `${code}: ` : ""}${message}`.slice(0, 300);
  if (code === "ECONNREFUSED") return { error: "connection_refused", detail };
  if (code === "ECONNRESET" || code === "EPIPE") return { error: "connection_reset", detail };
  if (code === "ETIMEDOUT") return { error: "timeout", detail };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { error: "dns_error", detail };
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return { error: "unreachable", detail };
  if (TLS_CODES.test(code) || /ssl|tls|certificate/i.test(message)) return { error: "tls_error", detail };
  return { error: "connection_error", detail };
}

/** Connect to the checked address whatever the name would resolve to now. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all)
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else (callback as (err: null, address: string, family: number) => void)(null, target.address, target.family);
  };
}

/**
 * Connections kept open between deliveries to the same receiver (idle for
 * at most 4 s, under the usual 5 s of servers), so a busy endpoint does not
 * cost a new connection (and TLS handshake) per event. A pooled connection
 * was made to an address checked when it was opened; every delivery still
 * checks its URL first.
 */
const AGENTS = {
  "http:": new http.Agent({ keepAlive: true, timeout: 4_000, maxSockets: 32 }),
  "https:": new https.Agent({ keepAlive: true, timeout: 4_000, maxSockets: 32 }),
};

function post(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  fresh = false,
): Promise<{ statusCode: number; body: string }> {
  return new Promise((resolve, reject) => {
    const https_ = target.url.protocol === "https:";
    const request = (https_ ? https : http).request(target.url, {
      method: "POST",
      agent: fresh ? false : AGENTS[https_ ? "https:" : "http:"],
      lookup: pinnedLookup(target),
      headers: {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": USER_AGENT,
        ...headers,
      },
      signal,
    });
    let finish: ((early: boolean) => void) | undefined;
    request.on("error", (error) => {
      // An answer whose status arrived is an answer, even if its body is cut short.
      if (finish) return finish(true);
      // A kept-alive connection the receiver closed just as we reused it: once more, on a new one.
      if (request.reusedSocket && (error as { code?: string }).code === "ECONNRESET" && !signal.aborted) {
        return void post(target, body, headers, signal, true).then(resolve, reject);
      }
      reject(signal.aborted ? signal.reason : error);
    });
    request.once("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      finish = (early) => {
        response.removeAllListeners("data");
        resolve({ statusCode: response.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_MAX).toString("utf8") });
        // Whatever else it would send is not read: that connection is not reused.
        if (early) response.destroy();
      };
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_MAX) finish!(true);
      });
      response.once("end", () => finish!(false));
      response.on("error", () => finish!(true));
    });
    request.end(body);
  });
}

/** The promise, or the signal's reason as soon as it aborts (a DNS lookup cannot be cancelled, only left behind). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * POSTs a signed body to a webhook URL: checks the URL (scheme and every
 * address its host resolves to), connects to the checked address, and
 * reports what happened. Never throws.
 */
export async function sendWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptFailure("timeout", `no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  const onShutdown = () => controller.abort(new AttemptFailure("shutdown", "the server was shutting down; the delivery will be retried"));
  options.signal?.addEventListener("abort", onShutdown, { once: true });
  const elapsed = () => Math.round(performance.now() - started);
  try {
    if (options.signal?.aborted) onShutdown();
    const target = await abortable(checkOutboundTarget(url, { allowPrivate: options.allowPrivate, resolve: options.resolve }), controller.signal);
    const answer = await post(target, body, headers, controller.signal);
    const ok = answer.statusCode >= 200 && answer.statusCode < 300;
    return { startedAt, durationMs: elapsed(), ok, statusCode: answer.statusCode, error: null, errorDetail: null, responseBody: answer.body || null };
  } catch (thrown) {
    const { error, detail } = classifyError(controller.signal.aborted ? controller.signal.reason : thrown);
    return { startedAt, durationMs: elapsed(), ok: false, statusCode: null, error, errorDetail: detail, responseBody: null };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onShutdown);
  }
}
