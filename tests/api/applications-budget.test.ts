import { beforeAll, describe, expect, it } from "vitest";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { APPLY_BUDGETS, applyKeyCounter } from "@/lib/applications/service";
import { now, setClock } from "@/lib/clock";
import { counterStore } from "@/lib/rate-limit/shared-store";
import { countersFor } from "@/lib/rate-limit/store";
import { windowAt } from "@/lib/rate-limit/windows";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { ORIGIN, call, enableRateLimit, expectApiError, newKey, seedPets } from "./helpers";

// The applicants' own budgets, on top of the anonymous limits: per email and
// per address, an hour and a day. Over budget is 429 with Retry-After. The
// email budgets bind partners' keys too; the address budgets bind browsers
// only (a partner's server forwards for all of its users).

enableRateLimit();

let partner: string;
let partnerId: number;
beforeAll(async () => {
  ({ key: partner, id: partnerId } = await newKey(["pets:read", "applications:write"], "listing site", { plan: "pro" }));
});

const limit = (who: "address" | "email" | "key", window: "hour" | "day") => APPLY_BUDGETS.find((b) => b.who === who && b.window === window)!.limit;

function apply(petId: number, email: string, address: string) {
  const { token } = mintAnonymousToken(now());
  return call(applyRoute, `/v1/pets/${petId}/applications`, {
    method: "POST",
    params: { petId: String(petId) },
    headers: { cookie: `petstore_session=${token}`, origin: ORIGIN, [SOCKET_ADDRESS_HEADER]: address },
    json: { name: "Budget", email, home: "flat", message: "Please.", consent: true },
  });
}

/** A listing site forwarding an application from its server (one address for all of its users). */
function forward(petId: number, email: string, address = "192.0.2.80", key = partner) {
  return call(applyRoute, `/v1/pets/${petId}/applications`, {
    method: "POST",
    key,
    params: { petId: String(petId) },
    headers: { [SOCKET_ADDRESS_HEADER]: address },
    json: { name: "Forwarded", email, home: "house", message: "Through a listing site.", consent: true },
  });
}

const at = (iso: string) => setClock(new Date(iso));

describe("applicants' budgets", () => {
  it("one email over its hourly budget gets 429 with Retry-After until the hour ends, from any address", async () => {
    setClock(new Date("2031-05-06T10:15:00Z"));
    const pets = await seedPets(Array.from({ length: limit("email", "hour") + 1 }, () => ({})));
    for (let i = 0; i < limit("email", "hour"); i++) expect((await apply(pets[i]!.id, "eager@example.org", `203.0.113.${i + 1}`)).status).toBe(201);
    const res = await apply(pets.at(-1)!.id, "EAGER@example.org", "203.0.113.99");
    const body = await expectApiError(res, 429, "rate_limited");
    expect(body.message).toContain("this email address");
    expect(res.headers.get("retry-after")).toBe(String(45 * 60));
    // Another person from the same network is not held back by it.
    expect((await apply(pets.at(-1)!.id, "calm@example.org", "203.0.113.99")).status).toBe(201);
    setClock(undefined);
  });

  it("one address over its hourly budget gets 429, whatever the emails", async () => {
    setClock(new Date("2031-05-06T11:59:30Z"));
    const pets = await seedPets(Array.from({ length: limit("address", "hour") + 1 }, () => ({})));
    for (let i = 0; i < limit("address", "hour"); i++) expect((await apply(pets[i]!.id, `person${i}@example.org`, "198.51.100.200")).status).toBe(201);
    const res = await apply(pets.at(-1)!.id, "someone.else@example.org", "198.51.100.200");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this network");
    expect(res.headers.get("retry-after")).toBe("30");
    setClock(undefined);
  });

  it("one email over its daily budget gets 429 until the day ends, though each hour stays within its own", async () => {
    const perHour = limit("email", "hour");
    const perDay = limit("email", "day");
    const pets = await seedPets(Array.from({ length: perDay + 1 }, () => ({})));
    let i = 0;
    for (const hour of ["08", "09", "10", "11"]) {
      at(`2031-05-07T${hour}:10:00Z`);
      for (let n = 0; n < perHour && i < perDay; n++, i++) expect((await apply(pets[i]!.id, "daily@example.org", `203.0.113.${i + 1}`)).status).toBe(201);
    }
    expect(i).toBe(perDay);
    at("2031-05-07T12:30:00Z");
    const res = await apply(pets.at(-1)!.id, "daily@example.org", "203.0.113.200");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this email address");
    expect(res.headers.get("retry-after")).toBe(String(11.5 * 3600));
    // The next day it may apply again.
    at("2031-05-08T00:00:01Z");
    expect((await apply(pets.at(-1)!.id, "daily@example.org", "203.0.113.200")).status).toBe(201);
    setClock(undefined);
  });

  it("one address over its daily budget gets 429 until the day ends, though each hour stays within its own", async () => {
    const perHour = limit("address", "hour");
    const perDay = limit("address", "day");
    const [pet] = await seedPets([{}]);
    let i = 0;
    for (const hour of ["06", "07", "08", "09"]) {
      at(`2031-05-09T${hour}:00:00Z`);
      for (let n = 0; n < perHour && i < perDay; n++, i++) expect((await apply(pet!.id, `neighbour${i}@example.org`, "198.51.100.77")).status).toBe(201);
    }
    expect(i).toBe(perDay);
    at("2031-05-09T12:00:00Z");
    const res = await apply(pet!.id, "one.more@example.org", "198.51.100.77");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this network");
    expect(res.headers.get("retry-after")).toBe(String(12 * 3600));
    setClock(undefined);
  });
});

describe("only applications that pass validation spend the budgets", () => {
  it("a victim's email named with made-up, pending and sold animals is not locked out", async () => {
    at("2031-05-12T10:00:00Z");
    const [pending, sold, real] = await seedPets([{ status: "pending" }, { status: "sold" }, {}]);
    const tries = limit("email", "day") + 2;
    for (let i = 0; i < tries; i++) {
      await expectApiError(await forward(987_654 + i, "victim@example.org"), 404, "not_found");
      await expectApiError(await forward(pending!.id, "victim@example.org"), 409, "not_available");
      await expectApiError(await apply(sold!.id, "VICTIM@example.org", "198.51.100.66"), 409, "not_available");
    }
    // Nor is the address those browser requests came from.
    expect((await apply(real!.id, "victim@example.org", "198.51.100.66")).status).toBe(201);
    setClock(undefined);
  });

  it("applying again for the same animal counts (it sends the link again where mail is set up)", async () => {
    at("2031-05-13T10:00:00Z");
    const pets = await seedPets([{}, {}]);
    expect((await forward(pets[0]!.id, "repeat@example.org")).status).toBe(201);
    for (let i = 1; i < limit("email", "hour"); i++) await expectApiError(await forward(pets[0]!.id, "repeat@example.org"), 409, "already_applied");
    await expectApiError(await forward(pets[0]!.id, "repeat@example.org"), 429, "rate_limited");
    await expectApiError(await forward(pets[1]!.id, "repeat@example.org"), 429, "rate_limited");
    setClock(undefined);
  });
});

describe("partners forwarding applications", () => {
  it("are not held to the per-address budgets: one server forwards more than an address's hour and day for its many users", async () => {
    at("2031-05-10T10:00:00Z");
    const [pet] = await seedPets([{}]);
    const count = limit("address", "day") + 1;
    expect(count).toBeGreaterThan(limit("address", "hour"));
    for (let i = 0; i < count; i++) expect((await forward(pet!.id, `listing.user${i}@example.org`)).status, `application ${i + 1}`).toBe(201);
    // The address's budget was not even spent: a browser there still applies.
    expect((await apply(pet!.id, "browser.user@example.org", "192.0.2.80")).status).toBe(201);
    setClock(undefined);
  });

  it("but each applicant's email keeps its hourly and daily budget, through a partner too", async () => {
    const perHour = limit("email", "hour");
    const perDay = limit("email", "day");
    const pets = await seedPets(Array.from({ length: perDay + 2 }, () => ({})));
    at("2031-05-11T09:05:00Z");
    for (let i = 0; i < perHour; i++) expect((await forward(pets[i]!.id, "keen@example.org")).status).toBe(201);
    const hourly = await forward(pets[perHour]!.id, "KEEN@example.org");
    expect((await expectApiError(hourly, 429, "rate_limited")).message).toContain("this email address");
    expect(hourly.headers.get("retry-after")).toBe(String(55 * 60));
    // The next hour, what is left of the day's budget (the refused try counted too).
    const left = perDay - perHour - 1;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(perHour);
    at("2031-05-11T10:05:00Z");
    for (let i = 0; i < left; i++) expect((await forward(pets[perHour + 1 + i]!.id, "keen@example.org")).status).toBe(201);
    at("2031-05-11T18:00:00Z");
    const daily = await forward(pets.at(-1)!.id, "keen@example.org");
    expect((await expectApiError(daily, 429, "rate_limited")).message).toContain("this email address");
    expect(daily.headers.get("retry-after")).toBe(String(6 * 3600));
    setClock(undefined);
  });
});

describe("a partner's key has its own budget, as it has for alerts", () => {
  it("100 applications an hour and 1,000 a day from one key, whatever the applicants and addresses; another key has its own", async () => {
    expect([limit("key", "hour"), limit("key", "day")]).toEqual([100, 1_000]);
    const { key: other } = await newKey(["pets:read", "applications:write"], "another listing site", { plan: "pro" });
    at("2031-05-14T10:20:00Z");
    const [pet, last] = await seedPets([{}, {}]);
    for (let i = 0; i < limit("key", "hour"); i++) {
      expect((await forward(pet!.id, `user${i}@partner.example`, `192.0.2.${i % 200}`)).status, `application ${i + 1}`).toBe(201);
    }
    const res = await forward(last!.id, "user100@partner.example");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this API key");
    expect(res.headers.get("retry-after")).toBe(String(40 * 60));
    expect((await forward(last!.id, "user100@partner.example", "192.0.2.80", other)).status).toBe(201);
    // The day's budget: the key's day counter as 1,000 applications that day leave it.
    at("2031-05-15T15:00:00Z");
    await counterStore().hit(countersFor(applyKeyCounter(partnerId), [windowAt("day", now())]), limit("key", "day"));
    const day = await forward(last!.id, "tomorrow@partner.example");
    expect((await expectApiError(day, 429, "rate_limited")).message).toContain("this API key");
    expect(day.headers.get("retry-after")).toBe(String(9 * 3600));
    setClock(undefined);
  });

  it("a browser spends no key budget, and an IPv6 network is one budget however many of its /64's addresses it uses", async () => {
    at("2031-05-16T10:00:00Z");
    const [pet] = await seedPets([{}]);
    for (let i = 0; i < limit("address", "hour"); i++)
      expect((await apply(pet!.id, `rotating${i}@example.org`, `2001:db8:7:8::${(i + 1).toString(16)}`)).status).toBe(201);
    const res = await apply(pet!.id, "rotating.more@example.org", "2001:db8:7:8:ffff::1");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this network");
    // The next /64 is another network.
    expect((await apply(pet!.id, "rotating.more@example.org", "2001:db8:7:9::1")).status).toBe(201);
    setClock(undefined);
  });
});
