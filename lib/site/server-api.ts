import "server-only";
import { headers } from "next/headers";
import { clientOriginOf } from "@/lib/http/client";
import { SOCKET_ADDRESS_HEADER } from "@/lib/http/socket-address";

// Server-rendered pages call the very same /v1 route handlers the browser
// and partners call (same auth, limits, validation), in-process: the first
// page arrives with data, without a second API or direct database reads.

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;

export interface ServerApiResult<T> {
  status: number;
  body: T;
  headers: Headers;
}

export async function serverApi<T>(handler: Handler, path: string, params: Record<string, string> = {}): Promise<ServerApiResult<T>> {
  const incoming = await headers();
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
