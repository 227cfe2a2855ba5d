import { clientOriginOf } from "@/lib/core/client";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";

// Server-rendered pages call the very same /v1 route handlers the browser
// and partners call (same auth, limits, validation), in-process: the first
// page arrives with data, without a second API or direct database reads.
// This is the one way to do it, for both routers: the App Router's pages
// (lib/site/server-api.ts) and the script-free reference (pages/docs.tsx).

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;
type HeaderSource = { get(name: string): string | null };

export interface ServerApiResult<T> {
  status: number;
  body: T;
  headers: Headers;
}

export async function callApi<T>(incoming: HeaderSource, handler: Handler, path: string, params: Record<string, string> = {}): Promise<ServerApiResult<T>> {
  const forwarded = new Headers({ accept: "application/json" });
  for (const name of ["cookie", SOCKET_ADDRESS_HEADER, "x-forwarded-for", "x-request-id"]) {
    const value = incoming.get(name);
    if (value) forwarded.set(name, value);
  }
  // The in-process request carries the page request's own origin in its URL,
  // so Link and Location URLs come out as the browser addressed the page.
  const origin = clientOriginOf(incoming, "http://localhost");
  const response = await handler(new Request(`${origin}${path}`, { headers: forwarded }), { params: Promise.resolve(params) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** Node's IncomingMessage headers (the Pages Router's req) as a Headers-like source. */
export function nodeHeaders(headers: Record<string, string | string[] | undefined>): HeaderSource {
  return {
    get: (name) => {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}
