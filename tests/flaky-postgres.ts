import net from "node:net";

/**
 * A TCP proxy of the tests' own between the app and PostgreSQL, to play
 * every way a database goes away, for real, on the wire:
 *
 *   pass      forward everything (the database is fine)
 *   cut       drop every open connection, and each new one at once
 *   refuse    stop listening (connection refused)
 *   starting  answer every new connection as a server that is starting up
 *             (FATAL 57P03), as PostgreSQL does after a restart
 *   full      answer as a server out of connection slots (FATAL 53300)
 *   hang      accept connections and never answer (a network black hole)
 */
export type Mode = "pass" | "cut" | "refuse" | "starting" | "full" | "hang";

/** A PostgreSQL ErrorResponse message, as the server sends it during start-up. */
function fatal(code: string, message: string): Buffer {
  const fields = Buffer.concat(
    [
      ["S", "FATAL"],
      ["V", "FATAL"],
      ["C", code],
      ["M", message],
    ]
      .map(([k, v]) => Buffer.from(`${k}${v}\0`))
      .concat([Buffer.from("\0")]),
  );
  const header = Buffer.alloc(5);
  header.write("E", 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

export class FlakyPostgres {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  mode: Mode = "pass";
  /** Connections accepted in each mode, to show a test really exercised it. */
  readonly accepted: Record<Mode, number> = { pass: 0, cut: 0, refuse: 0, starting: 0, full: 0, hang: 0 };

  constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  /** The URL to give the app: the target's URL with the proxy's port. */
  urlFor(targetUrl: string): string {
    const url = new URL(targetUrl);
    url.port = String(this.port);
    return url.toString();
  }

  static async start(targetUrl: string): Promise<FlakyPostgres> {
    const target = new URL(targetUrl);
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const proxy = new FlakyPostgres({ host: target.hostname, port: Number(target.port || 5432) }, port);
    await proxy.listen();
    return proxy;
  }

  private listen(): Promise<void> {
    this.server = net.createServer((client) => this.accept(client));
    return new Promise((resolve) => this.server!.listen(this.port, "127.0.0.1", () => resolve()));
  }

  private accept(client: net.Socket): void {
    this.accepted[this.mode]++;
    this.sockets.add(client);
    client.on("close", () => this.sockets.delete(client));
    client.on("error", () => {});
    switch (this.mode) {
      case "cut":
        client.destroy();
        return;
      case "hang":
        return;
      case "starting":
      case "full":
        // Wait for the client's start-up packet, then refuse it as PostgreSQL does.
        client.once("data", () => {
          client.end(this.mode === "full" ? fatal("53300", "sorry, too many clients already") : fatal("57P03", "the database system is starting up"));
        });
        return;
      default: {
        const upstream = net.connect(this.target);
        this.sockets.add(upstream);
        upstream.on("close", () => {
          this.sockets.delete(upstream);
          client.destroy();
        });
        client.on("close", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
        const pair = { client, upstream };
        this.pairs.add(pair);
        client.on("close", () => this.pairs.delete(pair));
        client.pipe(upstream);
        upstream.pipe(client);
      }
    }
  }

  /**
   * Switches mode. "cut" and "refuse" also drop every open connection, as a
   * crashed server does; "hang" stops open connections carrying anything
   * (packets dropped), and leaving it drops them.
   */
  async set(mode: Mode): Promise<void> {
    const wasHanging = this.mode === "hang";
    this.mode = mode;
    if (mode === "cut" || mode === "refuse" || wasHanging) for (const socket of this.sockets) socket.destroy();
    if (mode === "hang") {
      for (const { client, upstream } of this.pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
      }
    }
    if (mode === "refuse" && this.server) {
      await new Promise<void>((resolve) => this.server!.close(() => resolve()));
      this.server = undefined;
    }
    if (mode !== "refuse" && !this.server) await this.listen();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }
}
