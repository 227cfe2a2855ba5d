import { Readable } from "node:stream";
import { Client, FTPError } from "basic-ftp";
import { enterPassiveModeIPv4_forceControlHostIP, enterPassiveModeIPv6 } from "basic-ftp/dist/transfer";
import { env } from "@/lib/env";
import { checkOutboundTarget, OutboundUrlError, type CheckedTarget } from "@/lib/outbound/address-guard";
import { outboundAllowPrivate } from "@/lib/outbound/switch";

// The one place that talks FTP (basic-ftp). Every connection goes through the
// outbound address guard first (the host is the shelter's to type, so it is
// an SSRF risk like a webhook URL: public addresses only, unless
// the one outbound switch, OUTBOUND_ALLOW_PRIVATE), connects to the very address that was checked,
// and opens data connections to that same address whatever the server's
// PASV answer names (a hostile server could name 169.254.169.254 there).
// Every step has a deadline: the connection and login, and each transfer;
// and a session may have one for all of its steps together (a whole upload).

export interface FtpAccount {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  /** In the clear: only ever held in memory for the length of a connection. */
  password: string;
}

/**
 * A failure to show staff: the server's own answer ("530 Login incorrect."),
 * or why we could not reach it. `permanent`: retrying cannot help (a refused
 * login, a refused address). `plain`: the same in our words only, never a
 * byte of the server's text (what the connection test answers: it must not
 * read any host's banner for whoever asks).
 */
export class FtpFailure extends Error {
  readonly plain: string;
  constructor(
    message: string,
    readonly permanent: boolean,
    plain?: string,
  ) {
    super(message);
    this.name = "FtpFailure";
    this.plain = plain ?? message;
  }
}

export interface FtpSession {
  /** Puts `bytes` at `remotePath` (folders made as needed): under a temporary name first, then renamed where the server allows it. */
  put(remotePath: string, bytes: Buffer): Promise<void>;
  list(folder?: string): Promise<string[]>;
  close(): void;
}

function timeoutMs(): number {
  return env().LISTINGS_FTP_TIMEOUT_SECONDS * 1000;
}

/** When a whole piece of work (an upload) must be over, whatever its steps' own timeouts, and what to say then. */
export interface FtpDeadline {
  /** Epoch milliseconds. */
  at: number;
  message: string;
}

/**
 * Runs `step`, closing the connection (which makes it reject) if it takes
 * longer than the step timeout or goes past the whole work's deadline,
 * whichever comes first.
 */
async function withDeadline<T>(client: Client, what: string, step: () => Promise<T>, deadline?: FtpDeadline): Promise<T> {
  const left = deadline ? deadline.at - Date.now() : Infinity;
  const whole = left <= timeoutMs();
  const failure = () => new FtpFailure(whole ? deadline!.message : `${what} took longer than ${env().LISTINGS_FTP_TIMEOUT_SECONDS} s.`, false);
  if (left <= 0) {
    client.close();
    throw failure();
  }
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        client.close();
        reject(failure());
      },
      Math.min(timeoutMs(), left),
    );
  });
  try {
    return await Promise.race([step(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Our own words for a failure that happened below FTP (no server text in them). */
function plainNetworkError(code: string | undefined): string {
  switch (code) {
    case "ECONNREFUSED":
      return "Connection refused.";
    case "ETIMEDOUT":
    case "ESOCKETTIMEDOUT":
      return "No answer in time.";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "The host name could not be resolved.";
    case "ECONNRESET":
    case "EPIPE":
      return "The server closed the connection.";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "The host cannot be reached.";
    default:
      if (code && /CERT|TLS|SSL|SELF_SIGNED|ALTNAME/.test(code)) return "The server's certificate could not be verified.";
      return "The connection failed.";
  }
}

/** What went wrong, in words staff can act on; never the password (basic-ftp's errors never contain it: it sends PASS and reports only the answer). */
export function describeFtpError(error: unknown): FtpFailure {
  if (error instanceof FtpFailure) return error;
  if (error instanceof FTPError) {
    // 530: not logged in (wrong user or password); 421/4xx: try later.
    const login = error.code === 530 || error.code === 532;
    return new FtpFailure(
      error.message.trim(),
      login,
      login ? "Login refused: check the user name and password." : `The server refused (FTP reply ${error.code}).`,
    );
  }
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  // basic-ftp's own idle timeout ("Timeout (control socket)") carries no code.
  const plain = !code && /timeout/i.test(message) ? "No answer in time." : plainNetworkError(code);
  return new FtpFailure(code ? `${message} (${code})` : message, false, plain);
}

/**
 * The outbound address guard for an FTP host (a name, an IPv4 or a bare IPv6
 * address): every address it resolves to must be public, unless the one
 * outbound switch allows private ones. Throws OutboundUrlError.
 */
export function checkFtpHost(host: string): Promise<CheckedTarget> {
  const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return checkOutboundTarget(`https://${bracketed}/`, { allowPrivate: outboundAllowPrivate(), refusal: "listing sites are only reached at public addresses" });
}

/** Connects and logs in; the caller closes the session. With a `deadline`, every step of the session stops there too. */
export async function openFtp(account: FtpAccount, deadline?: FtpDeadline): Promise<FtpSession> {
  let target;
  try {
    target = await checkFtpHost(account.host);
  } catch (error) {
    if (error instanceof OutboundUrlError) throw new FtpFailure(error.message, true);
    throw error;
  }
  const client = new Client(timeoutMs());
  client.prepareTransfer = target.family === 6 ? enterPassiveModeIPv6 : enterPassiveModeIPv4_forceControlHostIP;
  const servername = account.host.replace(/^\[(.*)\]$/, "$1");
  try {
    await withDeadline(
      client,
      "Connecting and logging in",
      () =>
        client.access({
          host: target.address,
          port: account.port,
          user: account.username,
          password: account.password,
          secure: account.secure,
          // The certificate is checked against the name typed, not the address connected to.
          secureOptions: account.secure ? { servername: /^[0-9.]+$|:/.test(servername) ? undefined : servername } : undefined,
        }),
      deadline,
    );
  } catch (error) {
    client.close();
    throw describeFtpError(error);
  }
  return {
    async put(remotePath, bytes) {
      const slash = remotePath.lastIndexOf("/");
      const folder = slash >= 0 ? remotePath.slice(0, slash) : "";
      const name = remotePath.slice(slash + 1);
      const temporary = `${name}.uploading`;
      await withDeadline(
        client,
        `Sending ${remotePath}`,
        async () => {
          await client.cd("/");
          if (folder) await client.ensureDir(folder);
          await client.uploadFrom(Readable.from([bytes]), temporary);
          try {
            await client.rename(temporary, name);
          } catch (error) {
            if (!(error instanceof FTPError)) throw error;
            // Some servers refuse to rename onto an existing file: remove it
            // and rename again; one that refuses renames altogether gets the
            // file under its own name (a site may then read it half-written,
            // as every uploader to such a server does).
            await client.remove(name, true);
            try {
              await client.rename(temporary, name);
            } catch (again) {
              if (!(again instanceof FTPError)) throw again;
              await client.uploadFrom(Readable.from([bytes]), name);
              await client.remove(temporary, true);
            }
          }
        },
        deadline,
      );
    },
    async list(folder = "/") {
      return withDeadline(client, "Listing the folder", async () => (await client.list(folder)).map((entry) => entry.name), deadline);
    },
    close() {
      client.close();
    },
  };
}
