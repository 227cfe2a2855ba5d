import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";

// Outgoing email, when SMTP_URL is set (nodemailer). Only background jobs
// send (lib/jobs/tasks.ts), never a request: a slow or failing mail server
// delays nothing, and a failed send is retried by the job.

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

let transport: { url: string; transporter: Transporter } | undefined;

export function mailConfigured(): boolean {
  return Boolean(env().SMTP_URL);
}

/** Sends one message; false when mail is not configured (nothing to do). Throws when the server refuses it (the job retries). */
export async function sendMail(mail: Mail): Promise<boolean> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) return false;
  if (transport?.url !== SMTP_URL) {
    transport?.transporter.close();
    // Short timeouts: a job waiting on a dead server holds a worker slot.
    transport = { url: SMTP_URL, transporter: nodemailer.createTransport({ url: SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }) };
  }
  await transport.transporter.sendMail({ from: MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
  return true;
}
