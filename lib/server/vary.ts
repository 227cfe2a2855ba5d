import http from "node:http";

// Next marks every App Router answer, route handlers included, with
// `Vary: rsc, next-router-state-tree, next-router-prefetch,
// next-router-segment-prefetch` (and sometimes next-url): the request
// headers its client router sends for pages. A JSON answer does not depend
// on them, and a cache in front of the API would split its entries on them.
// So /v1 answers keep only the Vary the API means (lib/http/handler.ts sets
// it), and Next's router tokens are dropped as they are added.

const NEXT_ROUTER_HEADERS = new Set(["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-url"]);

/** A Vary value without Next's router headers; null when nothing is left. */
export function withoutRouterVary(value: string | number | readonly string[]): string | null {
  const tokens = (Array.isArray(value) ? value : [String(value)])
    .flatMap((v: string) => v.split(","))
    .map((t) => t.trim())
    .filter((t) => t !== "" && !NEXT_ROUTER_HEADERS.has(t.toLowerCase()));
  return tokens.length > 0 ? tokens.join(", ") : null;
}

const isVary = (name: string) => name.length === 4 && name.toLowerCase() === "vary";

/**
 * The server's responses (scripts/server.ts passes it to createServer): an
 * API answer (keepApiVary) drops Next's router headers from its Vary, and
 * goes out as one write, headers with the body. Next flushes an answer's
 * headers on their own before piping its body, a second socket write (5% of
 * a worker's CPU under load, bench profile, decision 019): an API answer's
 * body always follows at once (a route handler returns the whole Response),
 * so nothing is gained by sending the headers first. Pages keep Next's
 * behaviour (their streamed HTML wants its headers early). Methods on the
 * class, not closures per response.
 */
export class ApiAwareResponse<Request extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Request> {
  api = false;

  override setHeader(name: string, value: string | number | readonly string[]): this {
    if (!this.api || !isVary(name)) return super.setHeader(name, value);
    const kept = withoutRouterVary(value);
    if (kept === null) this.removeHeader(name);
    else super.setHeader(name, kept);
    return this;
  }

  override appendHeader(name: string, value: string | readonly string[]): this {
    if (!this.api || !isVary(name)) return super.appendHeader(name, value);
    const kept = withoutRouterVary(value);
    if (kept !== null) super.appendHeader(name, kept);
    return this;
  }

  override flushHeaders(): void {
    if (!this.api) super.flushHeaders();
  }
}

/** Makes this response drop Next's router headers from whatever Vary is set or appended on it (and, an ApiAwareResponse, go out in one write). */
export function keepApiVary(res: http.ServerResponse): void {
  if (res instanceof ApiAwareResponse) {
    res.api = true;
    return;
  }
  const set = res.setHeader.bind(res);
  const append = res.appendHeader.bind(res);
  res.setHeader = (name: string, value: string | number | readonly string[]) => {
    if (!isVary(name)) return set(name, value);
    const kept = withoutRouterVary(value);
    if (kept === null) res.removeHeader(name);
    else set(name, kept);
    return res;
  };
  res.appendHeader = (name: string, value: string | readonly string[]) => {
    if (!isVary(name)) return append(name, value);
    const kept = withoutRouterVary(value);
    if (kept !== null) append(name, kept);
    return res;
  };
}
