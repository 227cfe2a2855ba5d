/**
 * Header in which scripts/server.ts passes on the socket's address. The
 * server always overwrites it, so a client cannot choose it. Kept in a module
 * with no imports because the server loads it outside Next's bundle.
 */
export const SOCKET_ADDRESS_HEADER = "x-petstore-socket-address";

/** Header in which proxy.ts passes a page's path on to its server render (the header marks the current page). */
export const PATHNAME_HEADER = "x-petstore-pathname";
