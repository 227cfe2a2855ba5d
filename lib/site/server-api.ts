import "server-only";
import { headers } from "next/headers";
import { callApi, type ServerApiResult } from "@/lib/site/call-api";

type Handler = Parameters<typeof callApi>[1];

/** An in-process /v1 call from an App Router page, as the page's own request (lib/site/call-api.ts). */
export async function serverApi<T>(handler: Handler, path: string, params: Record<string, string> = {}): Promise<ServerApiResult<T>> {
  return callApi<T>(await headers(), handler, path, params);
}
