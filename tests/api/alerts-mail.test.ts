import type { ParsedMail } from "mailparser";
import { PUBLIC_SITE, mailingInstance } from "@/tests/mail-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as alertRoute } from "@/app/v1/alerts/[token]/route";
import { POST as unsubscribeRoute } from "@/app/v1/alerts/[token]/unsubscribe/route";
import { expireAlerts, sendAlertMail, sendDueAlerts } from "@/lib/alerts/mail";
import { matchAlerts } from "@/lib/alerts/matching";
import { now, setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { petView } from "@/lib/pets/present";
import { newPetSchema, type NewPetInput } from "@/lib/pets/schemas/pet";
import { createPet } from "@/lib/pets/service";
import { call, expectJson, newKey, newOrganization } from "./helpers";
import { confirmedAlert, createAlert, tokenOf } from "./alerts-helpers";

// Alerts' emails through a real SMTP server in this process, as the
// applications' mail tests do: the confirmation, the matches ("hourly": the
// first at once, then at most one an hour; a burst of 1,000 animals is one
// email per alert; "daily": one digest at 08:00 in the alert's own time
// zone, with a clock the test controls), each with HTML and text parts,
// every animal's cover, name, profile, shelter and link, and List-Unsubscribe
// (one-click POST, a mailto where configured); then expiry and renewal.

// A mailbox that does not exist is refused for good (5xx).
const mail = mailingInstance(
  { ALERTS_UNSUBSCRIBE_MAILTO: "unsubscribe@shelter.example" },
  { rejectRecipient: (address) => (address.startsWith("nobody-here") ? "No such user" : undefined) },
);
const inbox = mail.inbox;
let key: string;
let shelter: number;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "applications:write"], "site"));
  shelter = await newOrganization({ name: "Evanston Friends", lat: 42.0451, lng: -87.6877 });
});

afterAll(async () => {
  setClock();
});

beforeEach(() => {
  inbox.length = 0;
  setClock();
});

/** A header's value as sent (unfolded): mailparser turns List-* headers into objects. */
const rawHeader = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n\s+/g, " ");
  return line?.slice(line.indexOf(":") + 1).trim();
};

const to = mail.to;

let seq = 0;
async function intake(fields: Partial<NewPetInput> = {}): Promise<number> {
  const pet = await createPet(
    newPetSchema.parse({ name: `Animal ${++seq}`, categoryId: 1, ...fields }),
    { actor: { kind: "api_key", id: 1 }, requestId: `mail-${seq}`, tenancy: { kind: "organization", organizationId: shelter } },
    petView(new Date()),
  );
  return pet.id;
}

/** Every alert-mail job queued so far, sent as the job would. */
async function runAlertMailJobs(): Promise<void> {
  const jobs = await db().$queryRaw<{ id: bigint; payload: { alertId: string; kind: "confirm" | "renewal" } }[]>`
    SELECT j.id, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'alert-mail' ORDER BY j.id`;
  for (const job of jobs) {
    await sendAlertMail(job.payload);
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE id = ${job.id}`;
  }
}

describe("the confirmation", () => {
  it("goes to the address with the Manage link on PUBLIC_BASE_URL, in text and HTML, and nothing else is sent before it is opened", async () => {
    expect((await createAlert(key, { email: "new.adopter@example.org", filters: { categoryId: 1, near: "60601", within: "25mi" } })).status).toBe(202);
    await runAlertMailJobs();
    const [mail] = to("new.adopter@example.org");
    const token = await tokenOf("new.adopter@example.org");
    expect(mail!.subject).toBe("Confirm your alert: Dogs · within 25 mi of 60601");
    expect(mail!.text).toContain(`${PUBLIC_SITE}/alerts/${token}`);
    expect(mail!.html).toContain(`href="${PUBLIC_SITE}/alerts/${token}"`);
    expect(rawHeader(mail!, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    // Unconfirmed: an arriving animal is not even queued for it.
    await intake({ name: "Too soon" });
    await matchAlerts(new Date());
    expect(await sendDueAlerts(now())).toBe(0);
    expect(to("new.adopter@example.org")).toHaveLength(1);
  });

  it("carries no text the requester typed: a name search is 'a name search' until the address confirms; the alert's page shows it", async () => {
    const q = "Call 555 0100 now";
    await createAlert(key, { email: "stranger@example.org", filters: { categoryId: 1, q } });
    await runAlertMailJobs();
    const [mail] = to("stranger@example.org");
    expect(mail!.subject).toBe("Confirm your alert: Dogs · a name search");
    for (const part of [mail!.subject!, mail!.text!, mail!.html as string]) {
      expect(part).not.toContain("555");
      expect(part).not.toContain("Call");
    }
    expect(mail!.text).toContain("Dogs · a name search");
    const token = await tokenOf("stranger@example.org");
    const view = await expectJson<{ filters: { q: string }; description: string }>(await call(alertRoute, `/v1/alerts/${token}`, { params: { token } }));
    expect(view.filters.q).toBe(q);
    expect(view.description).toBe(`Dogs · named like “${q}”`);
  });
});

describe("in Spanish (locale es, the page's language)", () => {
  it("the confirmation, its links and the matches are in Spanish, in text and HTML", async () => {
    expect(
      (
        await createAlert(key, {
          email: "ana.alerta@example.org",
          locale: "es",
          filters: { categoryId: 1, sex: "female", goodWith: ["children", "cats"], near: "60601", within: "25mi" },
        })
      ).status,
    ).toBe(202);
    await runAlertMailJobs();
    const [confirmation] = to("ana.alerta@example.org");
    const token = await tokenOf("ana.alerta@example.org");
    expect(confirmation!.subject).toBe("Confirme su alerta: Perros · hembra · se lleva bien con niños y gatos · a menos de 25 mi de 60601");
    expect(confirmation!.text).toContain("Hola:");
    expect(confirmation!.text).toContain("a medida que lleguen (como máximo un correo por hora)");
    expect(confirmation!.text).toContain(`${PUBLIC_SITE}/es/alerts/${token}`);
    expect(confirmation!.html).toContain('<html lang="es">');
    expect(confirmation!.html).toContain("Confirmar la alerta");
    expect(confirmation!.html).toContain("<strong>Perros · hembra");
    expect(confirmation!.text).toContain(`Darse de baja de inmediato: ${PUBLIC_SITE}/v1/alerts/${token}/unsubscribe`);

    await confirmedAlert(key, "ana.coincide@example.org", { categoryId: 1 }, { locale: "es" });
    await intake({ name: "Canela", sex: "female", size: "small" });
    await matchAlerts(new Date());
    expect(await sendDueAlerts(now())).toBeGreaterThanOrEqual(1);
    const [match] = to("ana.coincide@example.org");
    expect(match!.subject).toBe("Nueva coincidencia: Canela (Perros)");
    expect(match!.text).toContain("Un animal nuevo coincide con su alerta:");
    expect(match!.text).toContain("Hembra · Pequeño");
    expect(match!.text).toContain("En Evanston Friends");
    expect(match!.text).toMatch(new RegExp(`${PUBLIC_SITE}/es/pets/[0-9]+`));
    // Out of the way of the next tests' matches.
    await db().alert.deleteMany({ where: { email: { in: ["ana.alerta@example.org", "ana.coincide@example.org"] } } });
  });
});

describe("hourly ('As they arrive')", () => {
  it("the first match goes at once with everything an adopter needs; later ones wait for the hour, then come together", async () => {
    await confirmedAlert(key, "hourly@example.org", { categoryId: 1 });
    const first = await intake({ name: "Biscuit", sex: "female", size: "small", breed: "Beagle mix" });
    await db().petPhoto.create({
      data: {
        petId: BigInt(first),
        position: 0,
        alt: "Biscuit on a rug",
        width: 640,
        height: 480,
        placeholder: "data:,",
        files: { "320": "biscuit-320.webp", "640": "biscuit-640.webp" },
        fileKeys: [],
      },
    });
    await matchAlerts(new Date());
    const t0 = new Date();
    setClock(t0);
    expect(await sendDueAlerts(now())).toBe(1);
    const [mail] = to("hourly@example.org");
    const token = await tokenOf("hourly@example.org");
    expect(mail!.subject).toBe("New match: Biscuit (Dogs)");
    for (const part of [mail!.text!, mail!.html as string]) {
      expect(part).toContain("Biscuit");
      expect(part).toContain("Female · Small · Beagle mix");
      expect(part).toContain("Evanston Friends");
      expect(part).toContain(`${PUBLIC_SITE}/pets/${first}`);
      expect(part).toContain(`${PUBLIC_SITE}/photos/biscuit-320.webp`);
      expect(part).toContain(`${PUBLIC_SITE}/alerts/${token}`);
    }
    expect(mail!.html).toContain('alt="Biscuit on a rug"');
    expect(rawHeader(mail!, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const listUnsubscribe = rawHeader(mail!, "list-unsubscribe");
    expect(listUnsubscribe).toContain(`<${PUBLIC_SITE}/v1/alerts/${token}/unsubscribe>`);
    expect(listUnsubscribe).toMatch(/<mailto:unsubscribe@shelter\.example\?subject=unsubscribe%20alert%20\d+>/);

    const second = await intake({ name: "Second" });
    const third = await intake({ name: "Third" });
    await matchAlerts(new Date());
    setClock(new Date(t0.getTime() + 59 * 60_000));
    expect(await sendDueAlerts(now())).toBe(0);
    setClock(new Date(t0.getTime() + 60 * 60_000));
    expect(await sendDueAlerts(now())).toBe(1);
    const later = to("hourly@example.org")[1]!;
    expect(later.subject).toBe("2 new matches: Dogs");
    expect(later.text).toContain(`${PUBLIC_SITE}/pets/${second}`);
    expect(later.text).toContain(`${PUBLIC_SITE}/pets/${third}`);
    expect(to("hourly@example.org")).toHaveLength(2);
  });

  it("an intake burst of 1,000 animals sends each alert at most one email (all waiting matches in the next one)", async () => {
    const emails = ["burst-a@example.org", "burst-b@example.org", "burst-c@example.org"];
    await confirmedAlert(key, emails[0]!);
    await confirmedAlert(key, emails[1]!, { categoryId: 1 });
    await confirmedAlert(key, emails[2]!, { near: "60601", within: "25mi" });
    const t0 = new Date();
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 250; i++) await intake({ name: `Burst ${round}-${i}` });
      await matchAlerts(new Date());
      // The sender runs every minute while the animals keep coming.
      setClock(new Date(t0.getTime() + round * 60_000));
      await sendDueAlerts(now());
    }
    for (const email of emails) expect(to(email), email).toHaveLength(1);
    const waiting = await db().alertMatch.count({ where: { alert: { email: emails[0] }, sentAt: null } });
    expect(waiting).toBe(750);
    setClock(new Date(t0.getTime() + 3 * 60_000 + 3_600_000));
    await sendDueAlerts(now());
    for (const email of emails) expect(to(email), email).toHaveLength(2);
    expect(to(emails[0]!)[1]!.subject).toBe("750 new matches: All animals");
    expect(to(emails[0]!)[1]!.text).toMatch(/And 730 more: https:\/\/adopt\.shelter\.example\/\n/);
  }, 120_000);
});

describe("a refused address", () => {
  it("does not hold the other alerts back, and what waited for it is dropped rather than tried every minute", async () => {
    await confirmedAlert(key, "nobody-here@example.org", { q: "Bounce" });
    await confirmedAlert(key, "fine@example.org", { q: "Bounce" });
    await intake({ name: "Bounce" });
    await matchAlerts(new Date());
    setClock(new Date(Date.now() + 5 * 3_600_000));
    await sendDueAlerts(now());
    expect(to("fine@example.org")).toHaveLength(1);
    expect(await db().alertMatch.count({ where: { alert: { email: "nobody-here@example.org" }, sentAt: null } })).toBe(0);
    expect(await db().alert.count({ where: { email: "nobody-here@example.org" } })).toBe(1);
    await db().alert.deleteMany({ where: { email: "nobody-here@example.org" } });
  });
});

describe("daily", () => {
  /** Runs the sender at `iso` (through the clock the jobs read); how many emails `email` has had. */
  const at = async (iso: string, email: string) => {
    setClock(new Date(iso));
    await sendDueAlerts(now());
    return to(email).length;
  };

  it("one digest at 08:00 in the alert's time zone, with what arrived before it", async () => {
    await confirmedAlert(key, "daily@example.org", { q: "Dawn" }, { frequency: "daily", timeZone: "America/Chicago" });
    await intake({ name: "Dawn one" });
    // Queued at 15:00 in Chicago (CDT, UTC-5).
    await matchAlerts(new Date("2031-05-06T20:00:00Z"));
    expect(await at("2031-05-06T20:01:00Z", "daily@example.org")).toBe(0);
    expect(await at("2031-05-07T12:59:00Z", "daily@example.org")).toBe(0);
    expect(await at("2031-05-07T13:00:00Z", "daily@example.org")).toBe(1);
    expect(to("daily@example.org")[0]!.subject).toBe("New match: Dawn one (All animals · named like “Dawn”)");
    // Something arriving after 08:00 waits for the next morning.
    await intake({ name: "Dawn two" });
    await matchAlerts(new Date("2031-05-07T13:30:00Z"));
    expect(await at("2031-05-07T23:00:00Z", "daily@example.org")).toBe(1);
    expect(await at("2031-05-08T12:00:00Z", "daily@example.org")).toBe(1);
    expect(await at("2031-05-08T13:00:30Z", "daily@example.org")).toBe(2);
    expect(await at("2031-05-08T13:30:00Z", "daily@example.org")).toBe(2);
  });

  it("08:00 follows each alert's own zone", async () => {
    await confirmedAlert(key, "tokyo@example.org", { q: "Kumo" }, { frequency: "daily", timeZone: "Asia/Tokyo" });
    await intake({ name: "Kumo" });
    await matchAlerts(new Date("2031-05-06T20:00:00Z"));
    // 08:00 in Tokyo is 23:00 UTC the day before.
    expect(await at("2031-05-06T22:59:00Z", "tokyo@example.org")).toBe(0);
    expect(await at("2031-05-06T23:00:00Z", "tokyo@example.org")).toBe(1);
  });
});

describe("one-click unsubscribe from the email", () => {
  it("POSTing the List-Unsubscribe URL as a mail client does (no cookie) deletes the alert: nothing more is sent", async () => {
    await confirmedAlert(key, "leaving@example.org", { q: "Leaf" });
    await intake({ name: "Leaf" });
    await matchAlerts(new Date());
    await sendDueAlerts(now());
    const mail = to("leaving@example.org")[0]!;
    const url = /<(https:[^>]+)>/.exec(rawHeader(mail, "list-unsubscribe")!)![1]!;
    const token = url.split("/").at(-2)!;
    const res = await call(unsubscribeRoute, url.replace(PUBLIC_SITE, ""), {
      method: "POST",
      params: { token },
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(await expectJson(res)).toEqual({ status: "unsubscribed" });
    expect(await db().alert.count({ where: { email: "leaving@example.org" } })).toBe(0);
    await intake({ name: "Leaf again" });
    await matchAlerts(new Date());
    setClock(new Date(Date.now() + 2 * 3_600_000));
    await sendDueAlerts(now());
    expect(to("leaving@example.org")).toHaveLength(1);
  });
});

describe("expiry and renewal", () => {
  it("unconfirmed alerts go after 7 days; an alert untouched for 12 months gets one renewal email, then goes 30 days later unless opened", async () => {
    await createAlert(key, { email: "never@example.org" });
    await confirmedAlert(key, "old@example.org");
    await confirmedAlert(key, "kept@example.org");
    await runAlertMailJobs();
    inbox.length = 0;
    const day = 86_400_000;
    const t = Date.now();
    expect((await expireAlerts(new Date(t + 6 * day))).unconfirmed).toBe(0);
    expect((await expireAlerts(new Date(t + 8 * day))).unconfirmed).toBeGreaterThanOrEqual(1);
    expect(await db().alert.count({ where: { email: "never@example.org" } })).toBe(0);

    const renewal = await expireAlerts(new Date(t + 366 * day));
    expect(renewal.renewals).toBeGreaterThanOrEqual(2);
    await runAlertMailJobs();
    const asked = to("old@example.org")[0]!;
    expect(asked.subject).toMatch(/^Do you still want this alert\?/);
    expect(asked.text).toContain(`${PUBLIC_SITE}/alerts/${await tokenOf("old@example.org")}`);
    // A second run asks nobody again.
    expect((await expireAlerts(new Date(t + 367 * day))).renewals).toBe(0);
    // Opening "kept" answers yes.
    const { GET: viewRoute } = await import("@/app/v1/alerts/[token]/route");
    setClock(new Date(t + 370 * day));
    const kept = await tokenOf("kept@example.org");
    expect((await call(viewRoute, `/v1/alerts/${kept}`, { params: { token: kept } })).status).toBe(200);
    setClock();
    await expireAlerts(new Date(t + 397 * day));
    expect(await db().alert.count({ where: { email: "old@example.org" } })).toBe(0);
    expect(await db().alert.count({ where: { email: "kept@example.org" } })).toBe(1);
  });
});
