import type http from "node:http";

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

/** Makes this response drop Next's router headers from whatever Vary is set or appended on it. */
export function keepApiVary(res: http.ServerResponse): void {
  const set = res.setHeader.bind(res);
  const append = res.appendHeader.bind(res);
  res.setHeader = (name: string, value: string | number | readonly string[]) => {
    if (name.toLowerCase() !== "vary") return set(name, value);
    const kept = withoutRouterVary(value);
    if (kept === null) res.removeHeader(name);
    else set(name, kept);
    return res;
  };
  res.appendHeader = (name: string, value: string | readonly string[]) => {
    if (name.toLowerCase() !== "vary") return append(name, value);
    const kept = withoutRouterVary(value);
    if (kept !== null) append(name, kept);
    return res;
  };
}
