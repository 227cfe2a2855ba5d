import type http from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, errorBody } from "@/lib/core/errors";
import { COMMON_HEADERS, corsHeaders, requestIdOf } from "@/lib/http/headers";

// What the HTTP server (scripts/server.ts) refuses before Next sees a
// request. Next answers a malformed /v1 URL with its own text/plain 500, a
// bodiless 308 or an empty 400, before any route handler runs; the API's
// contract is that every /v1 answer is the JSON Error shape. So requests the
// routes cannot even be matched for are answered here, in that shape, with
// the same CORS and X-Request-Id headers the wrapper gives.

/** Longest request-target accepted (longer: 414). */
export const MAX_URL_BYTES = 8 * 1024;
/** Most header bytes accepted (more: 431). The parser itself stops at HTTP_PARSER_MAX_HEADER_BYTES. */
export const MAX_HEADER_BYTES = 16 * 1024;
export const HTTP_PARSER_MAX_HEADER_BYTES = 64 * 1024;
/** Pages take no request bodies; a small one is tolerated, a large one is refused before it is buffered. */
export const MAX_PAGE_BODY_BYTES = 16 * 1024;

/** Every method some /v1 route implements; each route answers the others among them with 405 and its own Allow. */
export const API_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export interface Refusal {
  api: boolean;
  error: ApiError;
}

const refuse = (api: boolean, status: number, code: ConstructorParameters<typeof ApiError>[1], message: string, headers?: Record<string, string>): Refusal => ({
  api,
  error: new ApiError(status, code, message, undefined, headers),
});

/** The path of a request-target (origin-form, or the absolute-form a proxy may send). */
function pathOf(target: string): { path: string; query: string } {
  let rest = target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (absolute) rest = rest.slice(absolute[0].length) || "/";
  const q = rest.indexOf("?");
  return q < 0 ? { path: rest, query: "" } : { path: rest.slice(0, q), query: rest.slice(q + 1) };
}

export function isApiPath(path: string): boolean {
  return /^\/v1(?:[/%]|$)/.test(path);
}

export function isApiRequest(req: Pick<http.IncomingMessage, "url">): boolean {
  return isApiPath(pathOf(req.url ?? "/").path);
}

/** RFC 3986 pchar, as raw characters: anything else in a path must be percent-encoded. */
const RAW_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;

function pathProblem(path: string): Refusal | null {
  const bad = (why: string) => refuse(true, 400, "invalid_path", `The URL path is malformed: ${why}.`);
  if (!RAW_PATH.test(path)) return bad("it contains characters that must be percent-encoded");
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return bad("a % is not followed by two hexadecimal digits");
  const segments = path.split("/").slice(1);
  for (const [i, segment] of segments.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return bad("its percent-encoding is not UTF-8");
    }
    if (decoded === "." || decoded === "..") return bad("it contains a dot segment");
    if (/[/\\\u0000-\u001f\u007f]/.test(decoded)) return bad("a segment contains an encoded slash, backslash or control character");
    if (segment === "" && i < segments.length - 1) return bad("it contains an empty segment (//)");
  }
  if (path.length > 1 && path.endsWith("/")) {
    return refuse(true, 404, "not_found", `There is no endpoint at ${path.slice(0, 200)}: paths have no trailing slash. See /v1/openapi.json for the API.`);
  }
  return null;
}

function headerBytes(rawHeaders: string[]): number {
  let total = 0;
  for (const part of rawHeaders) total += Buffer.byteLength(part) + 2;
  return total;
}

/** The refusal for a request, or null to pass it on to Next. */
export function checkRequest(req: Pick<http.IncomingMessage, "method" | "url" | "rawHeaders" | "headers">): Refusal | null {
  const target = req.url ?? "/";
  const { path } = pathOf(target);
  const api = isApiPath(path);
  const method = (req.method ?? "GET").toUpperCase();

  if (Buffer.byteLength(target) > MAX_URL_BYTES) return refuse(api, 414, "uri_too_long", `The URL is longer than ${MAX_URL_BYTES} bytes.`);
  if (headerBytes(req.rawHeaders) > MAX_HEADER_BYTES) {
    return refuse(api, 431, "header_fields_too_large", `The request headers are larger than ${MAX_HEADER_BYTES / 1024} KiB in all.`);
  }

  if (!api) {
    // Pages: bodies are not read, so they must not be buffered either.
    const length = Number(req.headers["content-length"] ?? 0);
    if (req.headers["transfer-encoding"] || !Number.isFinite(length) || length > MAX_PAGE_BODY_BYTES) {
      return refuse(false, 413, "payload_too_large", `Pages accept request bodies of at most ${MAX_PAGE_BODY_BYTES / 1024} KiB, with a Content-Length.`);
    }
    return null;
  }

  if (!API_METHODS.includes(method)) {
    return refuse(true, 405, "method_not_allowed", `${method.slice(0, 32)} is not a method this API supports.`, { Allow: API_METHODS.join(", ") });
  }
  return pathProblem(path);
}

/** The headers of every answer the server gives on its own: the wrapper's, for /v1. */
function refusalHeaders(refusal: Refusal, requestId: string, body: string): Record<string, string> {
  const base: Record<string, string> = refusal.api
    ? { ...COMMON_HEADERS, ...corsHeaders(), "Content-Type": "application/json" }
    : { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Content-Type": "text/plain; charset=utf-8" };
  return { ...base, ...refusal.error.headers, "X-Request-Id": requestId, "Content-Length": String(Buffer.byteLength(body)) };
}

function refusalBody(refusal: Refusal): string {
  return refusal.api ? JSON.stringify(errorBody(refusal.error)) : `${refusal.error.message}\n`;
}

/** A refused request's body is read and thrown away up to this many bytes... */
export const DISCARD_MAX_BYTES = 1024 * 1024;
/** ...for at most this long, before the answer and the close. */
export const DISCARD_MAX_MS = 2_000;

/**
 * Reads and discards what is left of a request's body, within the limits
 * above, then calls `then` (once). Closing a connection whose received bytes
 * were never read makes the kernel send a reset instead of a clean close, and
 * a reset can destroy the answer before the client has read it (a lingering
 * close, as nginx does, for the same reason). A body declared larger than
 * the limit is not waited for: its sender has to cope with the close.
 */
export function discardBody(req: http.IncomingMessage, then: () => void): void {
  const declared = Number(req.headers["content-length"] ?? 0);
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (req.complete || (!chunked && !(declared > 0)) || (!chunked && declared > DISCARD_MAX_BYTES)) {
    then();
    return;
  }
  let bytes = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    req.off("data", onData);
    then();
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DISCARD_MAX_BYTES) finish();
  };
  const timer = setTimeout(finish, DISCARD_MAX_MS);
  req.on("data", onData);
  req.once("end", finish);
  req.once("error", finish);
  req.once("close", finish);
}

/** Answers a refused request and closes the connection, once its body (if any, within limits) has been read and discarded. */
export function sendRefusal(req: http.IncomingMessage, res: http.ServerResponse, refusal: Refusal): void {
  discardBody(req, () => {
    if (res.destroyed) return;
    const requestId = requestIdOf(req.headers["x-request-id"] as string | undefined);
    const body = refusalBody(refusal);
    res.writeHead(refusal.error.status, { ...refusalHeaders(refusal, requestId, body), Connection: "close" });
    res.end(req.method === "HEAD" ? undefined : body);
  });
}

/** The answer each connection is making (from its request's arrival to the answer's end). */
const answering = new WeakMap<object, http.ServerResponse>();
/** Connections that close after the answer in flight: what followed its request could not be parsed. */
const closingAfterAnswer = new WeakSet<object>();

/** Notes that `res` answers a request on its connection until it ends: answerClientError must not answer over it. */
export function trackAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const socket = req.socket;
  answering.set(socket, res);
  const forget = () => {
    if (answering.get(socket) === res) answering.delete(socket);
  };
  res.once("finish", forget);
  res.once("close", forget);
}

/**
 * What the HTTP parser could not even parse (Node's 'clientError'): its own
 * answer would be a bare "400 Bad Request" with no body. Ours is the Error
 * shape, written straight to the socket, unless a request before those bytes
 * is still being answered on this connection. Then that answer goes out
 * alone, as the last one, and the bytes get none: written behind it (an
 * answer that said `Connection: close` already, or one Next is still
 * making), a second answer made the client reject the connection and lose
 * the first ("Data after `Connection: close`"), or took its place. Such
 * bytes are typically a body sent without Content-Length (Node's own client
 * does that for DELETE and OPTIONS unless told the length), so the request
 * before them is whole and deserves its answer. They are still read, not
 * left in the kernel, so the close after the answer is not a reset.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const inFlight = answering.get(socket);
  if (inFlight) {
    if (closingAfterAnswer.has(socket)) return;
    closingAfterAnswer.add(socket);
    // Still to be written: its own head says it is the last (Node then ends the connection after it).
    if (!inFlight.headersSent) inFlight.setHeader("Connection", "close");
    else inFlight.once("finish", () => socket.end());
    return;
  }
  const refusal =
    error.code === "HPE_HEADER_OVERFLOW"
      ? refuse(true, 431, "header_fields_too_large", `The request line and headers are larger than ${HTTP_PARSER_MAX_HEADER_BYTES / 1024} KiB.`)
      : error.code === "HPE_INVALID_METHOD"
        ? refuse(true, 405, "method_not_allowed", "The request method is not one this API supports.", { Allow: API_METHODS.join(", ") })
        : error.code === "HPE_INVALID_URL"
          ? refuse(true, 400, "invalid_path", "The URL is malformed.")
          : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
            ? refuse(true, 408, "request_timeout", "The request was not received in time.")
            : refuse(true, 400, "invalid_request", "The request is not valid HTTP/1.1.");
  const body = refusalBody(refusal);
  const headers = { ...refusalHeaders(refusal, requestIdOf(undefined), body), Connection: "close" };
  const reason = { 400: "Bad Request", 405: "Method Not Allowed", 408: "Request Timeout", 431: "Request Header Fields Too Large" }[refusal.error.status];
  const head = [`HTTP/1.1 ${refusal.error.status} ${reason}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\r\n");
  socket.end(`${head}\r\n\r\n${body}`);
}
