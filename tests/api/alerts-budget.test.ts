import { beforeAll, describe, expect, it } from "vitest";
import { ALERT_BUDGETS } from "@/lib/alerts/service";
import { now, setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { SOCKET_ADDRESS_HEADER } from "@/lib/http/socket-address";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { ORIGIN, enableRateLimit, expectApiError, newKey } from "./helpers";
import { createAlert } from "./alerts-helpers";

// Alerts' budgets, on top of the anonymous limits: at most 3 confirmation
// emails an hour to one address (anyone can type anyone's address), at most
// 20 alerts an hour from one browser's network address; 429 with
// Retry-After beyond either. A partner's key is bound by the email budget
// only (its server speaks for all of its users).

enableRateLimit();

let partner: string;
beforeAll(async () => {
  ({ key: partner } = await newKey(["pets:read", "applications:write"], "listing site", { plan: "pro" }));
});

const limit = (who: "address" | "email") => ALERT_BUDGETS.find((b) => b.who === who)!.limit;

function fromBrowser(email: string, address: string, q?: string) {
  const { token } = mintAnonymousToken(now());
  return createAlert("", { email, ...(q ? { filters: { q } } : {}) }, { key: undefined, headers: { cookie: `petstore_session=${token}`, origin: ORIGIN, [SOCKET_ADDRESS_HEADER]: address } });
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
    for (let i = 0; i < 21; i++) expect((await createAlert(partner, { email: `forwarded${i}@example.org` }, { headers: { [SOCKET_ADDRESS_HEADER]: "192.0.2.80" } })).status).toBe(202);
    setClock();
  });

  it("invalid requests spend nothing", async () => {
    setClock(new Date("2031-05-08T10:00:00Z"));
    for (let i = 0; i < 5; i++) await expectApiError(await createAlert(partner, { email: "careful@example.org", filters: { categoryId: 999 } }), 400, "unknown_category");
    expect((await createAlert(partner, { email: "careful@example.org" })).status).toBe(202);
    setClock();
  });
});
