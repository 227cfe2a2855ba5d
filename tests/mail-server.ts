import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { until } from "@/tests/wait";

// A real SMTP server on 127.0.0.1 for the mail tests: what the app's job
// queue sends arrives here, parsed, in `inbox`; the tests script refusals as
// real servers make them (451 try later, 550 no such mailbox).

export interface TestMailServer {
  /** Every message received, parsed, in order. */
  inbox: ParsedMail[];
  /** The messages received for one address, in order. */
  to(address: string): ParsedMail[];
  /** The first message to `address` whose subject matches, once it has arrived (the job queue sends in the background). */
  waitFor(address: string, subject: RegExp, timeoutMs?: number): Promise<ParsedMail>;
  /** Starts listening on a free port; resolves with the SMTP_URL to give the app. */
  start(): Promise<string>;
  /** The next `count` messages are refused with a temporary failure (451), as a busy server does. */
  refuseNext(count: number): void;
  /** How many of those refusals are still to come. */
  refusalsLeft(): number;
  close(): Promise<void>;
}

/**
 * `rejectRecipient` returns the reply for a recipient refused for good (550),
 * or undefined to accept it: a real server's reply often names the address.
 */
export function testMailServer(options: { rejectRecipient?: (address: string) => string | undefined } = {}): TestMailServer {
  const inbox: ParsedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, done) {
      const reply = options.rejectRecipient?.(address.address);
      done(reply === undefined ? undefined : Object.assign(new Error(reply), { responseCode: 550 }));
    },
    onData(stream, _session, done) {
      if (refusals > 0) {
        refusals--;
        stream.resume();
        stream.on("end", () => done(Object.assign(new Error("Try again later"), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          done();
        })
        .catch(done);
    },
  });
  const to = (address: string) => inbox.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === address);
  return {
    inbox,
    to,
    waitFor(address, subject, timeoutMs = 20_000) {
      return until(`an email to ${address} with a subject like ${subject}`, () => to(address).find((m) => subject.test(m.subject ?? "")), timeoutMs);
    },
    async start() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    },
    refuseNext(count) {
      refusals = count;
    },
    refusalsLeft: () => refusals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The public site the mail tests' links point to (PUBLIC_BASE_URL is its /v1). */
export const PUBLIC_SITE = "https://adopt.shelter.example";

/**
 * A test file's instance that sends mail: a test mail server for the file,
 * the instance's SMTP_URL at it, MAIL_FROM, PUBLIC_BASE_URL at PUBLIC_SITE,
 * and `env`'s other settings, set before its tests and undone after them
 * (its afterAll runs after the file's own, which stop any background work).
 */
export function mailingInstance(env: Record<string, string> = {}, options: { rejectRecipient?: (address: string) => string | undefined } = {}): TestMailServer {
  const mail = testMailServer(options);
  beforeAll(async () => {
    vi.stubEnv("SMTP_URL", await mail.start());
    vi.stubEnv("MAIL_FROM", "Shelter <adopt@shelter.example>");
    vi.stubEnv("PUBLIC_BASE_URL", `${PUBLIC_SITE}/v1`);
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    resetEnvCache();
  });
  afterAll(async () => {
    await mail.close();
    vi.unstubAllEnvs();
    resetEnvCache();
  });
  return mail;
}
