/**
 * The end-to-end suite's mail server: a real SMTP server (the `smtp-server`
 * package) in the e2e launcher's own process (scripts/e2e-server.ts), which
 * the app under test is pointed at with SMTP_URL. Every message it accepts
 * is written as it arrived to `<mailbox>/<recipient>/<arrival>.eml`, where
 * the tests read it (e2e/mailbox.ts). It is part of the test harness only:
 * the app knows nothing of it beyond an SMTP URL.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/** The sender the app's emails carry in the suite (its MAIL_FROM). */
export const E2E_MAIL_SENDER = { name: "Petstore shelter", address: "adopt@petstore.test" } as const;
export const E2E_MAIL_FROM = `${E2E_MAIL_SENDER.name} <${E2E_MAIL_SENDER.address}>`;

/** Larger messages are refused: the app's emails are a few lines of text. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** The folder one recipient's messages are written to (shared with the tests that read them). */
export function recipientFolder(mailbox: string, address: string): string {
  return path.join(
    mailbox,
    address
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9@._+-]/g, "_"),
  );
}

export interface MailCatcher {
  /** What SMTP_URL should say: `smtp://127.0.0.1:<port>`. */
  url: string;
  close(): Promise<void>;
}

/** Starts the server on a free port of 127.0.0.1, over an emptied `mailbox`. */
export async function startMailCatcher(mailbox: string): Promise<MailCatcher> {
  fs.rmSync(mailbox, { recursive: true, force: true });
  fs.mkdirSync(mailbox, { recursive: true });
  let arrivals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: MAX_MESSAGE_BYTES,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (stream.sizeExceeded) {
          done(Object.assign(new Error("Message too large"), { responseCode: 552 }));
          return;
        }
        // Names sort in order of arrival; written aside, then renamed, so a
        // reader never sees half a message.
        const name = `${String(++arrivals).padStart(6, "0")}.eml`;
        try {
          for (const { address } of session.envelope.rcptTo) {
            const folder = recipientFolder(mailbox, address);
            fs.mkdirSync(folder, { recursive: true });
            fs.writeFileSync(path.join(folder, `.${name}.part`), Buffer.concat(chunks));
            fs.renameSync(path.join(folder, `.${name}.part`), path.join(folder, name));
          }
          done();
        } catch (error) {
          done(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // A connection dropped mid-message is the client's business, not a reason to stop.
  server.on("error", () => {});
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
