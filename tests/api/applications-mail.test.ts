import { createDecipheriv, createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PUBLIC_SITE, mailingInstance } from "@/tests/mail-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as linkRoute } from "@/app/v1/application-links/[token]/route";
import { POST as transitionRoute } from "@/app/v1/applications/[applicationId]/transitions/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { openToken, sealToken } from "@/lib/mail/sealed-token";
import { sendApplicationDigest } from "@/lib/applications/mail";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import { call, expectApiError, expectJson, newKey, newOrganization, seedPets, staffSession, type StaffSession } from "./helpers";
import { until } from "@/tests/wait";

// The applicant's emails through a real SMTP server in this process
// (smtp-server), sent by the real job queue: the confirmation carries a
// working private link on PUBLIC_BASE_URL (never on the Host a request
// named), each decision follows (the decision that queued it, however late
// the job runs), applying again sends the link again, a refused send is
// retried, and the job's payload never holds a usable link or anything of
// the applicant.

const mail = mailingInstance();
let work: BackgroundWork | undefined;
let partner: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key: partner } = await newKey(["pets:read", "applications:write"], "listing site"));
  staff = await staffSession();
});

afterAll(async () => {
  await work?.stop();
});

function apply(petId: number, email: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  return call(applyRoute, `/v1/pets/${petId}/applications`, {
    method: "POST",
    key: partner,
    headers,
    params: { petId: String(petId) },
    json: { name: "Alex Mail", email, home: "house", message: "Hello.", consent: true, ...extra },
  });
}

function step(id: number, to: string, extra: Record<string, unknown> = {}) {
  return call(transitionRoute, `/v1/applications/${id}/transitions`, {
    method: "POST",
    headers: staff.headers,
    json: { to, ...extra },
    params: { applicationId: String(id) },
  });
}

/** The application emails still queued (waiting, or being retried). */
async function mailJobs(): Promise<{ payload: Record<string, unknown>; attempts: number }[]> {
  return db()
    .$queryRaw`SELECT j.payload, j.attempts FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'application-mail' ORDER BY j.id`;
}

/** Waits until every queued application email has been sent. */
async function allSent(): Promise<void> {
  await until("the queued emails to be sent", async () => (await mailJobs()).length === 0, 15_000);
}

describe("queued with the change", () => {
  it("the job carries the link's token sealed, never as it is", async () => {
    const [pet] = await seedPets([{ name: "Sealed" }]);
    const created = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, "sealed@example.org"), 201);
    const token = created.statusUrl.split("/").at(-1)!;
    const jobs = await db().$queryRaw<
      { payload: unknown }[]
    >`SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'application-mail'`;
    const text = JSON.stringify(jobs);
    expect(text).toContain(String(created.id));
    expect(text).not.toContain(token);
    expect(openToken(sealToken(token))).toBe(token);
  });

  it("without SESSION_SECRET (a local setup), the token is sealed under this install's own random secret, never a key anyone can derive", () => {
    const cwd = process.cwd();
    const install = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-install-"));
    const secret = process.env.SESSION_SECRET;
    process.chdir(install);
    vi.stubEnv("SESSION_SECRET", undefined);
    resetEnvCache();
    try {
      const token = "T".repeat(43);
      const sealed = Buffer.from(sealToken(token), "base64url");
      // What an empty secret gave: a key everyone who reads the code has.
      const known = createHash("sha256").update("application-mail:").digest();
      const decipher = createDecipheriv("aes-256-gcm", known, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      expect(() => Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()])).toThrow();
      expect(openToken(sealed.toString("base64url"))).toBe(token);
      expect(fs.readFileSync(path.join(install, ".data", "session-secret"), "utf8")).toMatch(/^[A-Za-z0-9_-]{64}$/);
    } finally {
      process.chdir(cwd);
      vi.stubEnv("SESSION_SECRET", secret);
      resetEnvCache();
    }
  });

  it("a decision's job carries the state decided, and nothing of the applicant", async () => {
    const [pet] = await seedPets([{ name: "Decided" }]);
    const created = await expectJson<{ id: number }>(await apply(pet!.id, "decided@example.org"), 201);
    await expectJson(await step(created.id, "approved"));
    await expectJson(await step(created.id, "completed"));
    const mine = (await mailJobs()).filter((j) => j.payload.applicationId === String(created.id));
    expect(mine.map((j) => [j.payload.kind, j.payload.state])).toEqual([
      ["received", undefined],
      ["decision", "approved"],
      ["decision", "completed"],
    ]);
    const text = JSON.stringify(mine);
    for (const value of ["decided@example.org", "Alex Mail", "Hello."]) expect(text).not.toContain(value);
  });
});

describe("sent by the job queue", () => {
  beforeAll(() => {
    work = startBackgroundWork();
  });

  it("the applicant gets the confirmation with a working private link, then each decision", async () => {
    const [pet] = await seedPets([{ name: "Mailbox" }]);
    const created = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, "alex@example.org"), 201);
    const confirmation = await mail.waitFor("alex@example.org", /We received your application for Mailbox/);
    expect(confirmation.from?.text).toBe('"Shelter" <adopt@shelter.example>');
    expect(confirmation.text).toContain(created.statusUrl);
    expect(created.statusUrl.startsWith(`${PUBLIC_SITE}/applications/`)).toBe(true);
    const token = confirmation.text!.match(/\/applications\/([A-Za-z0-9_-]{43})/)![1]!;
    expect((await call(linkRoute, `/v1/application-links/${token}`, { params: { token } })).status).toBe(200);

    await expectJson(await step(created.id, "approved"));
    const approved = await mail.waitFor("alex@example.org", /approved/);
    expect(approved.text).toContain("arrange the adoption");
    expect(approved.text).not.toMatch(/[A-Za-z0-9_-]{43}/); // decisions never repeat the link
  });

  it("applied from a Spanish page (locale es): the confirmation and each decision are in Spanish; an unknown language is refused", async () => {
    const [pet] = await seedPets([{ name: "Canela" }]);
    const created = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, "ana@example.org", {}, { name: "Ana", locale: "es" }), 201);
    const stored = await db().adoptionApplication.findUniqueOrThrow({ where: { id: BigInt(created.id) }, select: { locale: true } });
    expect(stored.locale).toBe("es");
    const confirmation = await mail.waitFor("ana@example.org", /Recibimos su solicitud para Canela/);
    expect(confirmation.text).toContain("Hola:");
    expect(confirmation.text).not.toContain("Ana");
    expect(confirmation.text).toContain(`Gracias por solicitar la adopción de Canela (solicitud n.º ${created.id})`);
    expect(confirmation.text).toContain(created.statusUrl);
    await expectJson(await step(created.id, "approved"));
    const approved = await mail.waitFor("ana@example.org", /Buenas noticias: se aprobó su solicitud para Canela/);
    expect(approved.text).toContain("organizar la adopción");
    await expectApiError(await apply(pet!.id, "fr@example.org", {}, { locale: "fr" }), 400, "invalid_body");
  });

  it("nothing the applicant typed reaches their address, which nobody confirmed: not the name, in English or Spanish, on receipt, link again or decision", async () => {
    // Anyone can type anyone's address, and the 100 characters of the name with it.
    const spam = "WIN A PRIZE at https://spam.example now";
    const [english, spanish] = await seedPets([{ name: "Plain" }, { name: "Llano" }]);
    for (const [pet, email, locale] of [
      [english!, "relay.en@example.org", undefined],
      [spanish!, "relay.es@example.org", "es"],
    ] as const) {
      const typed = { name: spam, phone: "+1 555 0100", otherAnimals: "A cat called Visit-spam-example", ...(locale ? { locale } : {}) };
      const created = await expectJson<{ id: number }>(await apply(pet.id, email, {}, typed), 201);
      await expectApiError(await apply(pet.id, email, {}, typed), 409, "already_applied");
      await expectJson(await step(created.id, "in_review"));
      await allSent();
      await until(`three emails to ${email}`, () => mail.to(email).length >= 3, 15_000);
      const sent = mail.to(email);
      expect(sent.map((m) => m.subject)).toHaveLength(3);
      for (const message of sent) {
        for (const value of [spam, "spam", "555 0100", "Hello."]) {
          expect(`${message.subject}\n${message.text}\n${message.html || ""}`, `${locale ?? "en"}: ${message.subject}`).not.toContain(value);
        }
        expect(message.text).toMatch(locale ? /^Hola:\n/ : /^Hello,\n/);
      }
    }
  });

  it("approved, then completed before the first email went out: the approval and the completion each arrive once, in that order", async () => {
    // Queued while no job runs (a busy queue, or a retry hours later): the jobs run after both steps.
    await allSent(); // (stopped with nothing in flight, so no job is left locked)
    await work?.stop();
    work = undefined;
    const [pet] = await seedPets([{ name: "Quickly" }]);
    const created = await expectJson<{ id: number }>(await apply(pet!.id, "quick@example.org"), 201);
    await expectJson(await step(created.id, "approved"));
    await expectJson(await step(created.id, "completed"));
    work = startBackgroundWork();
    await allSent();
    const subjects = mail.to("quick@example.org").map((m) => m.subject);
    expect(subjects).toEqual(["We received your application for Quickly", "Good news: your application for Quickly was approved", "Welcome home, Quickly"]);
    const [, approval, completion] = mail.to("quick@example.org");
    expect(approval!.text).toContain("The shelter approved your application to adopt Quickly");
    expect(completion!.text).toContain("The adoption of Quickly is complete");
  });

  it("review, decline (with the shelter's message), cancel, and the others declined on completion: each says its own decision", async () => {
    const [pet, other] = await seedPets([{ name: "Decisions" }, { name: "Returned" }]);
    // Reviewed, then declined with a message.
    const declined = await expectJson<{ id: number }>(await apply(pet!.id, "declined@example.org"), 201);
    await expectJson(await step(declined.id, "in_review"));
    await expectJson(await step(declined.id, "declined", { message: "We are looking for a home with a garden." }));
    // Approved, then cancelled: the animal is available again.
    const cancelled = await expectJson<{ id: number }>(await apply(other!.id, "cancelled@example.org"), 201);
    await expectJson(await step(cancelled.id, "approved"));
    await expectJson(await step(cancelled.id, "cancelled"));
    // Completed, declining the animal's other open application with a message.
    const winner = await expectJson<{ id: number }>(await apply(pet!.id, "winner@example.org"), 201);
    await expectJson(await apply(pet!.id, "loser@example.org"), 201);
    await expectJson(await step(winner.id, "approved"));
    await expectJson(await step(winner.id, "completed", { declineOthers: true, message: "Decisions has found a home. Thank you." }));
    await allSent();

    const [reviewMail, declineMail] = mail.to("declined@example.org").slice(1);
    expect(reviewMail?.subject).toBe("Your application for Decisions is being reviewed");
    expect(declineMail?.subject).toBe("Your application for Decisions");
    expect(declineMail?.text).toContain("The shelter could not accept your application to adopt Decisions.");
    expect(declineMail?.text).toContain("Message from the shelter: We are looking for a home with a garden.");

    expect(mail.to("cancelled@example.org").map((m) => m.subject)).toEqual([
      "We received your application for Returned",
      "Good news: your application for Returned was approved",
      "Your adoption of Returned was cancelled",
    ]);
    expect(mail.to("cancelled@example.org")[2]!.text).toContain("The adoption of Returned was cancelled.");

    expect(mail.to("winner@example.org").map((m) => m.subject)).toEqual([
      "We received your application for Decisions",
      "Good news: your application for Decisions was approved",
      "Welcome home, Decisions",
    ]);
    expect(mail.to("winner@example.org")[2]!.text).not.toContain("Message from the shelter");

    const [, loserMail] = mail.to("loser@example.org");
    expect(loserMail?.subject).toBe("Your application for Decisions");
    expect(loserMail?.text).toContain("Message from the shelter: Decisions has found a home. Thank you.");
    expect(mail.to("loser@example.org")).toHaveLength(2);
  });

  it("links are built on PUBLIC_BASE_URL, never on the Host the request named (a forged Host must not make us mail a link to another site)", async () => {
    const [pet] = await seedPets([{ name: "Forged" }]);
    const created = await expectJson<{ statusUrl: string }>(await apply(pet!.id, "forged@example.org", { host: "evil.example" }), 201);
    const confirmation = await mail.waitFor("forged@example.org", /We received your application for Forged/);
    const token = created.statusUrl.split("/").at(-1)!;
    expect(confirmation.text).toContain(`${PUBLIC_SITE}/applications/${token}`);
    expect(confirmation.text).not.toContain("evil.example");
  });

  it("without PUBLIC_BASE_URL (development), links are on this server's own address, http://localhost:PORT, still never on the Host", async () => {
    vi.stubEnv("PUBLIC_BASE_URL", undefined);
    vi.stubEnv("PORT", "3456");
    resetEnvCache();
    try {
      const [pet] = await seedPets([{ name: "Unset" }]);
      const created = await expectJson<{ statusUrl: string }>(await apply(pet!.id, "unset@example.org", { host: "evil.example" }), 201);
      const confirmation = await mail.waitFor("unset@example.org", /We received your application for Unset/);
      expect(confirmation.text).toContain(`http://localhost:3456/applications/${created.statusUrl.split("/").at(-1)}`);
      expect(confirmation.text).not.toContain("evil.example");
    } finally {
      vi.stubEnv("PUBLIC_BASE_URL", `${PUBLIC_SITE}/v1`);
      vi.stubEnv("PORT", undefined);
      resetEnvCache();
    }
  });

  it("applying again while the first is open: a 409 naming neither the application nor its date, and the link sent to that address again (the first link still works)", async () => {
    const [pet] = await seedPets([{ name: "Again" }]);
    const created = await expectJson<{ id: number; statusUrl: string }>(await apply(pet!.id, "again@example.org"), 201);
    await mail.waitFor("again@example.org", /We received your application for Again/);
    const again = await expectApiError(await apply(pet!.id, "AGAIN@example.org", { host: "evil.example" }), 409, "already_applied");
    expect(again.message).toContain("we have sent the link to that address again");
    expect(again.message).not.toMatch(/#\d|\d{4}-\d{2}-\d{2}/);
    expect(again.message).not.toContain(String(created.id));
    const resent = await mail.waitFor("again@example.org", /The link to your application for Again/);
    expect(resent.text).not.toContain("evil.example");
    const token = resent.text!.match(new RegExp(`${PUBLIC_SITE}/applications/([A-Za-z0-9_-]{43})`))![1]!;
    const opened = await expectJson<{ id: number; state: string }>(await call(linkRoute, `/v1/application-links/${token}`, { params: { token } }));
    expect([opened.id, opened.state]).toEqual([created.id, "received"]);
    const first = created.statusUrl.split("/").at(-1)!;
    expect((await call(linkRoute, `/v1/application-links/${first}`, { params: { token: first } })).status).toBe(200);
    // One email each: the confirmation and the link again.
    expect(mail.to("again@example.org")).toHaveLength(2);
  });

  it("a send the server refuses is retried until it arrives", async () => {
    mail.refuseNext(1);
    const [pet] = await seedPets([{ name: "Retry" }]);
    await expectJson(await apply(pet!.id, "retry@example.org"), 201);
    await mail.waitFor("retry@example.org", /We received your application for Retry/, 30_000);
    expect(mail.refusalsLeft()).toBe(0);
  });

  it("staff who opted in get the daily digest of the day's new applications; the others do not", async () => {
    const opted = await staffSession();
    await staffSession(); // not opted in
    await db().staffUser.update({ where: { id: BigInt(opted.staffId) }, data: { applicationDigest: true } });
    const [pet] = await seedPets([{ name: "Digest" }]);
    const created = await expectJson<{ id: number }>(await apply(pet!.id, "digest@example.org"), 201);
    expect(await sendApplicationDigest(new Date(Date.now() + 1000))).toBe(1);
    const digest = await mail.waitFor(opted.email, /new adoption application/);
    expect(digest.text).toContain(`#${created.id} for Digest`);
    expect(digest.text).not.toContain("digest@example.org"); // no applicant data beyond the id
    expect(mail.inbox.filter((m) => /new adoption application/.test(m.subject ?? ""))).toHaveLength(1);
    // A day without new applications sends nothing.
    expect(await sendApplicationDigest(new Date(Date.now() + 3 * 86_400_000))).toBe(0);
  });

  it("each organisation's staff get their own organisation's applications in the digest; a platform admin every one's", async () => {
    const elsewhere = await newOrganization({ name: "Digest Elsewhere" });
    const home = await staffSession();
    const away = await staffSession(undefined, { organizationId: elsewhere });
    const admin = await staffSession(undefined, { platformAdmin: true });
    for (const s of [home, away, admin]) await db().staffUser.update({ where: { id: BigInt(s.staffId) }, data: { applicationDigest: true } });
    const [here] = await seedPets([{ name: "HomeDigest" }]);
    const [there] = await seedPets([{ name: "AwayDigest", organizationId: elsewhere }]);
    const start = Date.now();
    await expectJson(await apply(here!.id, "home-digest@example.org"), 201);
    await expectJson(await apply(there!.id, "away-digest@example.org"), 201);
    // Only the last minute's applications: the other tests' are a day older by then.
    await sendApplicationDigest(new Date(start + 86_400_000 - 1));
    const homeMail = await mail.waitFor(home.email, /new adoption application/);
    const awayMail = await mail.waitFor(away.email, /new adoption application/);
    const adminMail = await mail.waitFor(admin.email, /new adoption application/);
    expect(homeMail.text).toContain("HomeDigest");
    expect(homeMail.text).not.toContain("AwayDigest");
    expect(awayMail.text).toContain("AwayDigest");
    expect(awayMail.text).not.toContain("HomeDigest");
    expect(adminMail.text).toContain("HomeDigest");
    expect(adminMail.text).toContain("AwayDigest");
  });
});
