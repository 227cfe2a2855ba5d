import { beforeAll, describe, expect, it } from "vitest";
import { ALERT_BUDGETS, alertKeyCounter } from "@/lib/alerts/service";
import { now, setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import { counterStore } from "@/lib/rate-limit/shared-store";
import { countersFor } from "@/lib/rate-limit/store";
import { windowAt } from "@/lib/rate-limit/windows";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { ORIGIN, enableRateLimit, expectApiError, newKey } from "./helpers";
import { createAlert } from "./alerts-helpers";

// Alerts' budgets, on top of the anonymous limits: at most 3 confirmation
// emails an hour and 6 a day to one inbox (anyone can type anyone's address,
// and `+tags` or Gmail's dots still reach the same inbox), at most 20 alerts
// an hour from one browser's network address, at most 100 an hour and 1,000
// a day from one partner's key (its server speaks for all of its users, so
// it is not bound by a network's budget); 429 with Retry-After beyond any.

enableRateLimit();

let partner: string;
let partnerId: number;
beforeAll(async () => {
  ({ key: partner, id: partnerId } = await newKey(["pets:read", "applications:write"], "listing site", { plan: "business" }));
});

const limit = (who: "address" | "email" | "key", window: "hour" | "day" = "hour") => ALERT_BUDGETS.find((b) => b.who === who && b.window === window)!.limit;

function fromBrowser(email: string, address: string, q?: string) {
  const { token } = mintAnonymousToken(now());
  return createAlert(
    "",
    { email, ...(q ? { filters: { q } } : {}) },
    { key: undefined, headers: { cookie: `petstore_session=${token}`, origin: ORIGIN, [SOCKET_ADDRESS_HEADER]: address } },
  );
}

describe("alerts' budgets", () => {
  it("3 confirmation emails an hour to one address: the 4th is 429 with Retry-After until the hour ends, from any network; nothing is stored", async () => {
    expect(limit("email")).toBe(3);
    setClock(new Date("2031-05-06T10:15:00Z"));
    for (let i = 0; i < 3; i++) expect((await fromBrowser("target@example.org", `203.0.113.${i + 1}`)).status).toBe(202);
    const res = await fromBrowser("TARGET@example.org", "203.0.113.50");
    const body = await expectApiError(res, 429, "rate_limited");
    expect(body.message).toContain("this email address");
    expect(res.headers.get("retry-after")).toBe(String(45 * 60));
    expect(await db().alert.count({ where: { email: "target@example.org" } })).toBe(3);
    // Partners are bound by it too.
    await expectApiError(await createAlert(partner, { email: "target@example.org" }), 429, "rate_limited");
    setClock(new Date("2031-05-06T11:00:00Z"));
    expect((await fromBrowser("target@example.org", "203.0.113.51")).status).toBe(202);
    setClock();
  });

  it("20 an hour from one browser's network address, whatever the emails; a partner's server is not bound by it", async () => {
    expect(limit("address")).toBe(20);
    setClock(new Date("2031-05-07T10:30:00Z"));
    for (let i = 0; i < 20; i++) expect((await fromBrowser(`person${i}@example.org`, "198.51.100.7")).status).toBe(202);
    const res = await fromBrowser("one.more@example.org", "198.51.100.7");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this network");
    expect(res.headers.get("retry-after")).toBe(String(30 * 60));
    expect((await fromBrowser("one.more@example.org", "198.51.100.8")).status).toBe(202);
    for (let i = 0; i < 21; i++)
      expect((await createAlert(partner, { email: `forwarded${i}@example.org` }, { headers: { [SOCKET_ADDRESS_HEADER]: "192.0.2.80" } })).status).toBe(202);
    setClock();
  });

  it("an inbox is one, however its address is spelled: +tags anywhere, and dots at Gmail (googlemail.com too)", async () => {
    setClock(new Date("2031-05-09T10:00:00Z"));
    for (const [i, email] of ["victim+one@gmail.com", "v.ictim@gmail.com", "VIC.TIM+x@googlemail.com"].entries()) {
      expect((await fromBrowser(email, `203.0.114.${i + 1}`)).status).toBe(202);
    }
    const res = await fromBrowser("victim@gmail.com", "203.0.114.9");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this email address");
    // Elsewhere a dot is part of the address: another inbox.
    for (const email of ["sam+a@example.org", "sam+b@example.org", "sam@example.org"]) expect((await fromBrowser(email, "203.0.114.20")).status).toBe(202);
    await expectApiError(await fromBrowser("SAM+c@example.org", "203.0.114.21"), 429, "rate_limited");
    expect((await fromBrowser("s.am@example.org", "203.0.114.22")).status).toBe(202);
    setClock();
  });

  it("6 confirmation emails a day to one inbox, whatever the hours: the 7th is 429 until the day ends (UTC)", async () => {
    expect(limit("email", "day")).toBe(6);
    setClock(new Date("2031-05-10T09:10:00Z"));
    for (let i = 0; i < 3; i++) expect((await fromBrowser(`daily+${i}@example.org`, "203.0.115.1")).status).toBe(202);
    setClock(new Date("2031-05-10T10:10:00Z"));
    for (let i = 3; i < 6; i++) expect((await fromBrowser(`daily+${i}@example.org`, "203.0.115.2")).status).toBe(202);
    setClock(new Date("2031-05-10T20:00:00Z"));
    const res = await fromBrowser("daily@example.org", "203.0.115.3");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this email address");
    expect(res.headers.get("retry-after")).toBe(String(4 * 3600));
    setClock(new Date("2031-05-11T00:00:00Z"));
    expect((await fromBrowser("daily@example.org", "203.0.115.4")).status).toBe(202);
    setClock();
  });

  it("a partner's key: 100 alerts an hour and 1,000 a day, whatever the addresses and networks", async () => {
    expect([limit("key"), limit("key", "day")]).toEqual([100, 1_000]);
    const { key: other } = await newKey(["pets:read", "applications:write"], "another listing site", { plan: "business" });
    setClock(new Date("2031-05-12T10:20:00Z"));
    for (let i = 0; i < 100; i++) {
      const res = await createAlert(partner, { email: `user${i}@partner.example` }, { headers: { [SOCKET_ADDRESS_HEADER]: `192.0.2.${i % 200}` } });
      expect(res.status).toBe(202);
    }
    const res = await createAlert(partner, { email: "user100@partner.example" });
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this API key");
    expect(res.headers.get("retry-after")).toBe(String(40 * 60));
    // Another key has its own budget.
    expect((await createAlert(other, { email: "user100@partner.example" })).status).toBe(202);
    // A day's budget: the key's day counter as 1,000 alerts that day leave it.
    setClock(new Date("2031-05-13T15:00:00Z"));
    await counterStore().hit(countersFor(alertKeyCounter(BigInt(partnerId)), [windowAt("day", now())]), limit("key", "day"));
    const day = await createAlert(partner, { email: "tomorrow@partner.example" });
    expect((await expectApiError(day, 429, "rate_limited")).message).toContain("this API key");
    expect(day.headers.get("retry-after")).toBe(String(9 * 3600));
    setClock();
  });

  it("invalid requests spend nothing", async () => {
    setClock(new Date("2031-05-08T10:00:00Z"));
    for (let i = 0; i < 5; i++)
      await expectApiError(await createAlert(partner, { email: "careful@example.org", filters: { categoryId: 999 } }), 400, "unknown_category");
    expect((await createAlert(partner, { email: "careful@example.org" })).status).toBe(202);
    setClock();
  });
});
