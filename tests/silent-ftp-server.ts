import { createServer, type Socket } from "node:net";

// A listing site's FTP server that hangs, for the tests of what long work may
// hold (tests/api/job-slots.test.ts); a working one is tests/ftp-server.ts.

export interface SilentFtpServer {
  host: string;
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Connections open right now (accepted and not yet closed by the client). */
  open(): number;
  /** The most connections that were ever open at once. */
  mostOpen(): number;
  close(): Promise<void>;
}

/**
 * An "FTP server" that accepts connections and never says a word (no
 * greeting): a listing site's server hung, or a hostile one. A client waits
 * on it until its own deadline; closing it ends every connection at once.
 */
export async function startSilentFtpServer(): Promise<SilentFtpServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let mostOpen = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    mostOpen = Math.max(mostOpen, sockets.size);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    host: "127.0.0.1",
    port,
    accepted: () => accepted,
    open: () => sockets.size,
    mostOpen: () => mostOpen,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
