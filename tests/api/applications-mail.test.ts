import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as linkRoute } from "@/app/v1/application-links/[token]/route";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { openToken, sealToken, sendApplicationDigest } from "@/lib/applications/mail";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { startBackgroundWork, type BackgroundWork } from "@/lib/jobs/runner";
import { call, expectJson, newKey, seedPets, staffSession, type StaffSession } from "./helpers";

// The applicant's emails through a real SMTP server in this process
// (smtp-server), sent by the real job queue: the confirmation carries a
// working private link, each decision follows, a refused send is retried,
// and the job's payload never holds a usable link.

let smtp: SMTPServer;
const inbox: ParsedMail[] = [];
/** How many of the next messages the server refuses (a temporary failure, 451). */
let refuseNext = 0;
let work: BackgroundWork | undefined;
let partner: string;
let staff: StaffSession;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, done) {
      if (refuseNext > 0) {
        refuseNext--;
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
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  vi.stubEnv("SMTP_URL", `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`);
  vi.stubEnv("MAIL_FROM", "Shelter <adopt@shelter.example>");
  resetEnvCache();
  ({ key: partner } = await newKey(["pets:read", "applications:write"], "listing site"));
  staff = await staffSession();
});

afterAll(async () => {
  await work?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  vi.unstubAllEnvs();
  resetEnvCache();
});

async function until<T>(check: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const mailTo = (address: string, subject: RegExp) => () => inbox.find((m) => m.to && !Array.isArray(m.to) && m.to.text === address && subject.test(m.subject ?? ""));

function apply(petId: number, email: string) {
  return call(applyRoute, `/v1/pets/${petId}/applications`, {
    method: "POST",
    key: partner,
    params: { petId: String(petId) },
    json: { name: "Alex Mail", email, home: "house", message: "Hello.", consent: true },
  });
}

describe("queued with the change", () => {
  it("the job carries the link's token sealed, never as it is", async () => {
    const [pet] = await seedPets([{ name: "Sealed" }]);
    const created = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, "sealed@example.org"), 201);
    const token = created.statusUrl.split("/").at(-1)!;
    const jobs = await db().$queryRaw<{ payload: unknown }[]>`SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'application-mail'`;
    const text = JSON.stringify(jobs);
    expect(text).toContain(String(created.id));
    expect(text).not.toContain(token);
    expect(openToken(sealToken(token))).toBe(token);
  });
});

describe("sent by the job queue", () => {
  beforeAll(() => {
    work = startBackgroundWork();
  });

  it("the applicant gets the confirmation with a working private link, then each decision", async () => {
    const [pet] = await seedPets([{ name: "Mailbox" }]);
    const created = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, "alex@example.org"), 201);
    const confirmation = await until(mailTo("alex@example.org", /We received your application for Mailbox/), "the confirmation");
    expect(confirmation.from?.text).toBe('"Shelter" <adopt@shelter.example>');
    expect(confirmation.text).toContain(created.statusUrl);
    const token = confirmation.text!.match(/\/applications\/([A-Za-z0-9_-]{43})/)![1]!;
    expect((await call(linkRoute, `/v1/application-links/${token}`, { params: { token } })).status).toBe(200);

    const step = (to: string) =>
      call(transitionRoute, `/v1/applications/${created.id}/transitions`, { method: "POST", headers: staff.headers, json: { to }, params: { applicationId: String(created.id) } });
    await expectJson(await step("approved"));
    const approved = await until(mailTo("alex@example.org", /approved/), "the approval");
    expect(approved.text).toContain("arrange the adoption");
    expect(approved.text).not.toMatch(/[A-Za-z0-9_-]{43}/); // decisions never repeat the link
  });

  it("a send the server refuses is retried until it arrives", async () => {
    refuseNext = 1;
    const [pet] = await seedPets([{ name: "Retry" }]);
    await expectJson(await apply(pet!.id, "retry@example.org"), 201);
    await until(mailTo("retry@example.org", /We received your application for Retry/), "the retried confirmation", 30_000);
    expect(refuseNext).toBe(0);
  });

  it("staff who opted in get the daily digest of the day's new applications; the others do not", async () => {
    const opted = await staffSession();
    await staffSession(); // not opted in
    await db().staffUser.update({ where: { id: BigInt(opted.staffId) }, data: { applicationDigest: true } });
    const [pet] = await seedPets([{ name: "Digest" }]);
    const created = await expectJson<{ id: number }>(await apply(pet!.id, "digest@example.org"), 201);
    expect(await sendApplicationDigest(new Date(Date.now() + 1000))).toBe(1);
    const digest = await until(mailTo(opted.email, /new adoption application/), "the digest");
    expect(digest.text).toContain(`#${created.id} for Digest`);
    expect(digest.text).not.toContain("digest@example.org"); // no applicant data beyond the id
    expect(inbox.filter((m) => /new adoption application/.test(m.subject ?? ""))).toHaveLength(1);
    // A day without new applications sends nothing.
    expect(await sendApplicationDigest(new Date(Date.now() + 3 * 86_400_000))).toBe(0);
  });
});
