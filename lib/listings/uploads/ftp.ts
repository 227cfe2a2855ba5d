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
// Every step has a deadline: the connection and login, and each transfer.

export interface FtpAccount {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  /** In the clear: only ever held in memory for the length of a connection. */
  password: string;
}

/** A failure to show staff: the server's own answer ("530 Login incorrect."), or why we could not reach it. `permanent`: retrying cannot help (a refused login, a refused address). */
export class FtpFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "FtpFailure";
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

/** Runs `step`, closing the connection (which makes it reject) if it takes longer than the timeout. */
async function withDeadline<T>(client: Client, what: string, step: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      client.close();
      reject(new FtpFailure(`${what} took longer than ${env().LISTINGS_FTP_TIMEOUT_SECONDS} s.`, false));
    }, timeoutMs());
  });
  try {
    return await Promise.race([step(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What went wrong, in words staff can act on; never the password (basic-ftp's errors never contain it: it sends PASS and reports only the answer). */
export function describeFtpError(error: unknown): FtpFailure {
  if (error instanceof FtpFailure) return error;
  if (error instanceof FTPError) {
    // 530: not logged in (wrong user or password); 421/4xx: try later.
    return new FtpFailure(error.message.trim(), error.code === 530 || error.code === 532);
  }
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return new FtpFailure(code ? `${message} (${code})` : message, false);
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

/** Connects and logs in; the caller closes the session. */
export async function openFtp(account: FtpAccount): Promise<FtpSession> {
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
    await withDeadline(client, "Connecting and logging in", () =>
      client.access({
        host: target.address,
        port: account.port,
        user: account.username,
        password: account.password,
        secure: account.secure,
        // The certificate is checked against the name typed, not the address connected to.
        secureOptions: account.secure ? { servername: /^[0-9.]+$|:/.test(servername) ? undefined : servername } : undefined,
      }),
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
      await withDeadline(client, `Sending ${remotePath}`, async () => {
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
      });
    },
    async list(folder = "/") {
      return withDeadline(client, "Listing the folder", async () => (await client.list(folder)).map((entry) => entry.name));
    },
    close() {
      client.close();
    },
  };
}
