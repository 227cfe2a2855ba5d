import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer } from "node:net";
import { FileSystem, FtpSrv, type FtpConnection } from "ftp-srv";

// A real FTP server in the test process (ftp-srv), for the listing uploads:
// one account, files in a temporary folder the test reads back. A wrong
// password is refused as a real server does ("530 Login incorrect.").
// `slowRenameMs` makes it a slow server: every rename (each file an upload
// puts ends with one) answers only after that long.

const quiet = {
  child() {
    return quiet;
  },
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface TestFtpServer {
  host: string;
  port: number;
  username: string;
  password: string;
  /** The account's folder on disk. */
  root: string;
  /** A file's bytes on the server, or null. */
  read(remotePath: string): Buffer | null;
  /** Every file under the root, relative, sorted. */
  files(): string[];
  /** Passwords the server was sent (to check nothing else leaks them). */
  logins: { username: string; ok: boolean }[];
  close(): Promise<void>;
}

/** The server's own folder, with every rename answered late. */
class SlowFileSystem extends FileSystem {
  constructor(
    connection: FtpConnection,
    root: string,
    private readonly delayMs: number,
  ) {
    super(connection, { root, cwd: "/" });
  }

  override async rename(from: string, to: string): Promise<unknown> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return super.rename(from, to);
  }
}

export async function startFtpServer(
  username = "shelter",
  password = "correct horse battery",
  options: { slowRenameMs?: number } = {},
): Promise<TestFtpServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-ftp-"));
  const port = await freePort();
  const [pasvMin, pasvMax] = [port + 1, port + 40];
  const server = new FtpSrv({
    url: `ftp://127.0.0.1:${port}`,
    pasv_url: "127.0.0.1",
    pasv_min: pasvMin,
    pasv_max: pasvMax,
    anonymous: false,
    greeting: "Petstore test FTP",
    log: quiet as never,
  });
  const logins: TestFtpServer["logins"] = [];
  server.on(
    "login",
    (
      { connection, username: user, password: pass }: { connection: FtpConnection; username: string; password: string },
      resolve: (r: { root: string; fs?: FileSystem }) => void,
      reject: (e: Error) => void,
    ) => {
      const ok = user === username && pass === password;
      logins.push({ username: user, ok });
      if (!ok) reject(new Error("Login incorrect."));
      else if (options.slowRenameMs) resolve({ root, fs: new SlowFileSystem(connection, root, options.slowRenameMs) });
      else resolve({ root });
    },
  );
  server.on("client-error", () => {});
  await server.listen();
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : [path.relative(root, full)];
    });
  return {
    host: "127.0.0.1",
    port,
    username,
    password,
    root,
    read(remotePath) {
      const full = path.join(root, remotePath);
      return fs.existsSync(full) ? fs.readFileSync(full) : null;
    },
    files: () => walk(root).sort(),
    logins,
    async close() {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
