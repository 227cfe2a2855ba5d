import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";
import type { MailKind } from "@/lib/core/mail-kinds";
import { metrics } from "@/lib/metrics";

// Outgoing email, when SMTP_URL is set (nodemailer). Only background jobs
// send (lib/worker/tasks.ts), never a request: a slow or failing mail server
// delays nothing, and a failed send is retried by the job.

export interface Mail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text` (alerts' emails); the text part is always sent. */
  html?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

/**
 * A send the mail server did not take, described without anything the server
 * said: its reply echoes the recipient's address ("550 5.1.1 <sam@example.org>:
 * user unknown") and nodemailer's error carries the rejected addresses, while
 * this error is logged by the job queue (and kept in its table) on every
 * failed attempt. What remains (nodemailer's code, the SMTP command and reply
 * code) is enough to tell a refused recipient from a server that is down.
 */
export class MailError extends Error {
  readonly code?: string;
  readonly command?: string;
  readonly responseCode?: number;

  constructor(cause: unknown) {
    const { code, command, responseCode } = (typeof cause === "object" && cause !== null ? cause : {}) as Record<string, unknown>;
    // Only values of a known shape: a command like "RCPT TO", never its argument.
    const safe = {
      code: typeof code === "string" && /^[A-Z_]{1,32}$/.test(code) ? code : undefined,
      command: typeof command === "string" && /^[A-Z]{2,10}(?: [A-Z]{2,10})?$/.test(command) ? command : undefined,
      responseCode: typeof responseCode === "number" ? responseCode : undefined,
    };
    const said = [safe.responseCode, safe.command && `at ${safe.command}`, safe.code && `(${safe.code})`].filter(Boolean).join(" ");
    super(`The mail server did not take the message${said ? `: ${said}` : ""}.`);
    this.name = "MailError";
    this.code = safe.code;
    this.command = safe.command;
    this.responseCode = safe.responseCode;
  }
}

let transport: { url: string; transporter: Transporter } | undefined;

export function mailConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

/** Sends one message; false when mail is not configured (nothing to do). Throws a MailError when the server refuses it (the job retries). */
export async function sendMail(mail: Mail): Promise<boolean> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) return false;
  if (transport?.url !== SMTP_URL) {
    transport?.transporter.close();
    // Short timeouts: a job waiting on a dead server holds a worker slot.
    transport = {
      url: SMTP_URL,
      transporter: nodemailer.createTransport({ url: SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }),
    };
  }
  try {
    await transport.transporter.sendMail({ from: MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers });
  } catch (error) {
    metrics().emails.inc({ kind: mail.kind, outcome: "failed" });
    throw new MailError(error);
  }
  metrics().emails.inc({ kind: mail.kind, outcome: "sent" });
  return true;
}
