import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";
import { E2E_MAIL_SENDER, recipientFolder } from "../scripts/e2e-mail";

// What the server under test sent by email: its jobs deliver to the suite's
// own SMTP server (scripts/e2e-mail.ts, started by scripts/e2e-server.ts),
// which writes each message to a folder per recipient. A test gives each
// applicant an address of its own, so it reads only its own messages.

export { E2E_MAIL_SENDER };

function mailbox(): string {
  const folder = process.env.E2E_MAILBOX;
  if (!folder) throw new Error("E2E_MAILBOX is unset: run the suite through `npm run test:e2e`.");
  return folder;
}

/** Every message delivered to `address` so far, oldest first, parsed. */
export async function mailTo(address: string): Promise<ParsedMail[]> {
  const folder = recipientFolder(mailbox(), address);
  const names = fs.existsSync(folder) ? (await fs.promises.readdir(folder)).filter((name) => name.endsWith(".eml")).sort() : [];
  return Promise.all(names.map(async (name) => simpleParser(await fs.promises.readFile(path.join(folder, name)))));
}

/**
 * Waits (polling the mailbox) for the message to `address` with this subject
 * (a string: exactly this one), and returns it. Emails go out from a job
 * after the change commits, so they arrive a moment after the page answered.
 */
export async function waitForMail(address: string, subject: string | RegExp, timeout = 15_000): Promise<ParsedMail> {
  const matches = (mail: ParsedMail) => (typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject ?? ""));
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailTo(address)).find(matches);
        return found !== undefined;
      },
      { message: `an email to ${address} with the subject ${String(subject)}`, timeout },
    )
    .toBe(true);
  return found!;
}

/** The http(s) links in a message's text, in order. */
export const linksIn = (mail: ParsedMail): string[] => mail.text?.match(/https?:\/\/\S+/g) ?? [];
