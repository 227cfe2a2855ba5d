/**
 * Header in which scripts/server.ts passes on the socket's address. The
 * server always overwrites it, so a client cannot choose it. Kept in a module
 * with no imports because the server loads it outside Next's bundle.
 */
export const SOCKET_ADDRESS_HEADER = "x-petstore-socket-address";

/** Header in which proxy.ts passes a page's path on to its server render (the header marks the current page). */
export const PATHNAME_HEADER = "x-petstore-pathname";

/**
 * Headers that only our own code may set on a request (the server, proxy.ts):
 * a client's copy of any of them is removed before anything reads it (in
 * scripts/server.ts for every request, and again in proxy.ts for every page,
 * so a page stays safe behind any server). The pages trust them: the origin
 * makes canonical links, the path marks the current page, the nonce and the
 * policy are the CSP's.
 */
export function isInternalRequestHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("x-petstore-") || lower === "x-nonce";
}
