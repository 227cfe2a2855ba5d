import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/v1/alerts/[token]/route";
import { POST as unsubscribeRoute } from "@/app/v1/alerts/[token]/unsubscribe/route";
import { matchAlerts } from "@/lib/alerts/matching";
import { alertViewSchema } from "@/lib/alerts/schemas";
import { deleteAlertForSender } from "@/lib/alerts/service";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { db } from "@/lib/db";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { now } from "@/lib/clock";
import { ORIGIN, call, createPet, expectApiError, expectJson, newKey, seedPets } from "./helpers";
import { confirm, confirmedAlert, createAlert, tokenOf } from "./alerts-helpers";

// Alerts through their API (the contract shared with the site): creating one
// (double opt-in: nothing happens until the link is opened), its private
// link's view, pause, delete, and RFC 8058's one-click unsubscribe.

let key: string;
beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "applications:write"], "listing site"));
});

type View = {
  status: string;
  frequency: string;
  timeZone: string;
  filters: Record<string, unknown>;
  description: string;
  emailHint: string;
  createdAt: string;
  confirmedAt: string | null;
};

const view = (token: string) => call(getRoute, `/v1/alerts/${token}`, { params: { token } });

describe("POST /v1/alerts", () => {
  it("answers 202 'check your email', stores an unconfirmed alert with only the token's hash, and queues the confirmation (nothing of the person in the job)", async () => {
    const res = await createAlert(key, {
      email: " Sam.Alert@Example.org ",
      frequency: "daily",
      timeZone: "America/Chicago",
      filters: { categoryId: 1, size: "small", goodWith: ["children"], near: "60601", within: "25mi" },
    });
    const body = await expectJson<{ status: string; message: string }>(res, 202);
    expect(body.status).toBe("confirmation_sent");
    expect(body.message).toMatch(/Check your email/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const row = await db().alert.findFirstOrThrow({ where: { email: "sam.alert@example.org" } });
    expect(row.status).toBe("unconfirmed");
    const token = await tokenOf("sam.alert@example.org");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.tokenHash).not.toContain(token);
    expect(JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain(token);
    const jobs = await db().$queryRaw<
      { payload: unknown }[]
    >`SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'alert-mail'`;
    expect(jobs).toHaveLength(1);
    expect(JSON.stringify(jobs)).not.toContain("sam.alert");
    expect(JSON.stringify(jobs)).not.toContain(token);
  });

  it("the page's view: filters as sent, in words, the address hinted, unconfirmed until confirmed (idempotently)", async () => {
    await createAlert(key, { email: "words@example.org", filters: { categoryId: 1, size: "small", goodWith: ["children"], near: "60601", within: "25mi" } });
    const token = await tokenOf("words@example.org");
    const before = await expectJson<View>(await view(token));
    expect(before).toMatchObject({ status: "unconfirmed", frequency: "hourly", timeZone: "UTC", confirmedAt: null, emailHint: "w…@example.org" });
    expect(before.filters).toEqual({ categoryId: 1, size: "small", goodWith: ["children"], near: "60601", within: "25mi" });
    expect(before.description).toBe("Dogs · small · good with children · within 25 mi of 60601");
    expect(JSON.stringify(before)).not.toContain("words@");
    // The answer is the documented Alert (the OpenAPI document is generated from this schema).
    expect(alertViewSchema.strict().safeParse(before).success).toBe(true);
    const confirmed = await expectJson<View>(await confirm(token));
    expect(confirmed.status).toBe("active");
    expect(confirmed.confirmedAt).not.toBeNull();
    const again = await expectJson<View>(await confirm(token));
    expect(again.confirmedAt).toBe(confirmed.confirmedAt);
  });

  it("refuses what the list would refuse, the honeypot, no consent, and unknown places or categories", async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ email: "not-an-email" }, 400, "invalid_body", "email"],
      [{ email: "a@example.org", consent: false }, 400, "invalid_body", "consent"],
      [{ email: "a@example.org", website: "http://spam.example" }, 400, "invalid_body", "website"],
      [{ email: "a@example.org", frequency: "weekly" }, 400, "invalid_body", "frequency"],
      [{ email: "a@example.org", timeZone: "Mars/Olympus" }, 400, "invalid_body", "timeZone"],
      [{ email: "a@example.org", timeZone: "+01:00" }, 400, "invalid_body", "timeZone"],
      [{ email: "a@example.org", filters: { status: "sold" } }, 400, "invalid_body", "filters.status"],
      [{ email: "a@example.org", filters: { sex: "unknown" } }, 400, "invalid_body", "filters.sex"],
      [{ email: "a@example.org", filters: { within: "10mi" } }, 400, "invalid_body", "filters.within"],
      [{ email: "a@example.org", filters: { near: "somewhere" } }, 400, "invalid_body", "filters.near"],
      [{ email: "a@example.org", filters: { near: "60601", within: "9000km" } }, 400, "invalid_body", "filters.within"],
      // Below 0.1 km, or a denormal figure (it underflowed to a radius of 0: the database refused the row, a 500).
      [{ email: "a@example.org", filters: { near: "60601", within: "0.05km" } }, 400, "invalid_body", "filters.within"],
      [{ email: "a@example.org", filters: { near: "60601", within: `0.${"0".repeat(320)}1km` } }, 400, "invalid_body", "filters.within"],
      [{ email: "a@example.org", filters: { near: "60601", within: `0.${"0".repeat(310)}1km` } }, 400, "invalid_body", "filters.within"],
      [{ email: "a@example.org", filters: { near: "00000" } }, 400, "unknown_location", "filters.near"],
      [{ email: "a@example.org", filters: { categoryId: 999 } }, 400, "unknown_category", "filters.categoryId"],
    ];
    for (const [body, status, code, field] of cases) {
      const error = await expectApiError(await createAlert(key, body), status, code);
      expect(
        error.details?.map((d) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await db().alert.count({ where: { email: "a@example.org" } })).toBe(0);
  });

  it("at most 10 alerts per address: the 11th is 409 too_many_alerts, whatever the case", async () => {
    for (let i = 0; i < 10; i++) expect((await createAlert(key, { email: "many@example.org", filters: { q: `name${i}` } })).status).toBe(202);
    await expectApiError(await createAlert(key, { email: "MANY@example.org" }), 409, "too_many_alerts");
  });

  it("the 10 count by inbox: +tags and Gmail's dots (googlemail.com too) are the same address", async () => {
    const spellings = ["victim@gmail.com", "v.ictim@gmail.com", "victim+1@gmail.com", "vic.tim+2@googlemail.com", "VICTIM+3@GMAIL.COM"];
    for (let i = 0; i < 10; i++) expect((await createAlert(key, { email: spellings[i % spellings.length], filters: { q: `pet${i}` } })).status).toBe(202);
    await expectApiError(await createAlert(key, { email: "v.i.c.t.i.m+11@gmail.com" }), 409, "too_many_alerts");
    // Outside Gmail a dot is part of the address: another inbox.
    for (let i = 0; i < 10; i++) expect((await createAlert(key, { email: `pat+${i}@example.org` })).status).toBe(202);
    await expectApiError(await createAlert(key, { email: "pat@example.org" }), 409, "too_many_alerts");
    expect((await createAlert(key, { email: "p.at@example.org" })).status).toBe(202);
  });

  it("a `near` point is kept to 2 decimals (about 1 km); a ZIP code as given", async () => {
    await createAlert(key, { email: "doorstep@example.org", filters: { near: " 42.045123 , -87.687789 ", within: "5km" } });
    const row = await db().alert.findFirstOrThrow({ where: { email: "doorstep@example.org" }, select: { filters: true, nearLat: true, nearLng: true } });
    expect(row).toEqual({ filters: { near: "42.05,-87.69", within: "5km" }, nearLat: 42.05, nearLng: -87.69 });
    const shown = await expectJson<View>(await view(await tokenOf("doorstep@example.org")));
    expect(shown.description).toBe("All animals · within 5 km of 42.05,-87.69");
    await createAlert(key, { email: "zip@example.org", filters: { near: "60601", within: "5km" } });
    const zip = await db().alert.findFirstOrThrow({ where: { email: "zip@example.org" }, select: { filters: true } });
    expect(zip.filters).toEqual({ near: "60601", within: "5km" });
  });

  it("a browser's anonymous session may create one (its origin checked, as for applying)", async () => {
    const { token } = mintAnonymousToken(now());
    const cookie = `petstore_session=${token}`;
    const ok = await createAlert("", { email: "browser@example.org" }, { key: undefined, headers: { cookie, origin: ORIGIN } });
    expect(ok.status).toBe(202);
    const cross = await createAlert("", { email: "browser@example.org" }, { key: undefined, headers: { cookie, origin: "https://evil.example" } });
    await expectApiError(cross, 403, "forbidden");
  });
});

describe("the private link", () => {
  it("an unknown or malformed token is 404 / 400", async () => {
    const unknown = "A".repeat(43);
    await expectApiError(await view(unknown), 404, "not_found");
    await expectApiError(await confirm(unknown), 404, "not_found");
    await expectApiError(await view("short"), 400, "invalid_path");
  });

  it("pause and resume (PATCH), refused before confirmation", async () => {
    await createAlert(key, { email: "pause@example.org" });
    const token = await tokenOf("pause@example.org");
    const patch = (paused: unknown) => call(patchRoute, `/v1/alerts/${token}`, { method: "PATCH", params: { token }, json: { paused } });
    await expectApiError(await patch(true), 409, "not_confirmed");
    await confirm(token);
    expect((await expectJson<View>(await patch(true))).status).toBe("paused");
    expect((await expectJson<View>(await view(token))).status).toBe("paused");
    expect((await expectJson<View>(await patch(false))).status).toBe("active");
    await expectApiError(await patch("yes"), 400, "invalid_body");
  });

  it("DELETE removes it and whatever waited; then 404", async () => {
    const token = await confirmedAlert(key, "delete@example.org");
    await seedPetsThatMatch();
    const alert = await db().alert.findFirstOrThrow({ where: { email: "delete@example.org" }, select: { id: true } });
    expect(await db().alertMatch.count({ where: { alertId: alert.id } })).toBeGreaterThan(0);
    const res = await call(deleteRoute, `/v1/alerts/${token}`, { method: "DELETE", params: { token } });
    expect(res.status).toBe(204);
    expect(await db().alert.count({ where: { id: alert.id } })).toBe(0);
    expect(await db().alertMatch.count({ where: { alertId: alert.id } })).toBe(0);
    await expectApiError(await view(token), 404, "not_found");
  });
});

async function seedPetsThatMatch(): Promise<void> {
  // Created through the audit trail's trigger as the API would: seedPets writes rows only, so write an event-producing change instead.
  const { key: staffKey } = await newKey(["pets:read", "pets:write"], "intake");
  await createPet({ name: "Waiting" }, { key: staffKey });
  await matchAlerts(new Date(Date.now() + 1000));
}

describe("one-click unsubscribe (RFC 8058)", () => {
  it("a POST with the one-click body, no cookie and no Origin deletes the alert and what waited; again (or unknown) is still 200", async () => {
    const token = await confirmedAlert(key, "oneclick@example.org");
    await seedPetsThatMatch();
    const alert = await db().alert.findFirstOrThrow({ where: { email: "oneclick@example.org" }, select: { id: true } });
    const post = () =>
      call(unsubscribeRoute, `/v1/alerts/${token}/unsubscribe`, {
        method: "POST",
        params: { token },
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    const res = await post();
    expect(await expectJson(res)).toEqual({ status: "unsubscribed" });
    expect(await db().alert.count({ where: { id: alert.id } })).toBe(0);
    expect(await db().alertMatch.count({ where: { alertId: alert.id } })).toBe(0);
    expect(await expectJson(await post())).toEqual({ status: "unsubscribed" });
    const empty = await call(unsubscribeRoute, `/v1/alerts/${"B".repeat(43)}/unsubscribe`, { method: "POST", params: { token: "B".repeat(43) } });
    expect(await expectJson(empty)).toEqual({ status: "unsubscribed" });
  });

  it("works from a browser with a session cookie and another site's Origin too (the token is the credential)", async () => {
    const token = await confirmedAlert(key, "crosssite@example.org");
    const { token: session } = mintAnonymousToken(now());
    const res = await call(unsubscribeRoute, `/v1/alerts/${token}/unsubscribe`, {
      method: "POST",
      params: { token },
      headers: { cookie: `petstore_session=${session}`, origin: "https://mail.example" },
    });
    expect(await expectJson(res)).toEqual({ status: "unsubscribed" });
  });
});

describe("an unsubscribe by mail (the operators' `alerts delete`)", () => {
  it("deletes that one alert, with what waited, only when the sender's address reaches the alert's inbox; nothing else of the person", async () => {
    await confirmedAlert(key, "mailer+dogs@gmail.com", { categoryId: 1 });
    await confirmedAlert(key, "mailer@gmail.com", { categoryId: 2 });
    const [dogs, cats] = await db().alert.findMany({ where: { inbox: "mailer@gmail.com" }, orderBy: { id: "asc" }, select: { id: true } });
    // Someone else's address, or an alert that is not there: nothing happens.
    expect(await deleteAlertForSender(Number(dogs!.id), "someone.else@gmail.com")).toBe(false);
    expect(await deleteAlertForSender(987654, "mailer@gmail.com")).toBe(false);
    expect(await db().alert.count({ where: { inbox: "mailer@gmail.com" } })).toBe(2);
    // The owner writes from the plain address (a +tag and Gmail's dots reach the same inbox).
    expect(await deleteAlertForSender(Number(dogs!.id), "Mail.er@gmail.com")).toBe(true);
    expect((await db().alert.findMany({ where: { inbox: "mailer@gmail.com" }, select: { id: true } })).map((a) => a.id)).toEqual([cats!.id]);
  });
});

describe("personal data", () => {
  it("the address never reaches the change feed or the matches", async () => {
    await confirmedAlert(key, "private.person@example.org");
    await seedPets([{ name: "Quiet" }]);
    const events = await db().event.findMany({ select: { data: true } });
    expect(JSON.stringify(events)).not.toContain("private.person");
  });
});

describe("OpenAPI", () => {
  it("the partner contract documents creating an alert; the site's document every operation of the private link", () => {
    const partner = buildOpenApiDocument("partner").paths ?? {};
    expect(Object.keys(partner).filter((p) => p.startsWith("/alerts"))).toEqual(["/alerts"]);
    expect(partner["/alerts"]!.post!.responses).toHaveProperty("202");
    expect(partner["/alerts"]!.post!.responses).toHaveProperty("409");
    const site = buildOpenApiDocument("site").paths ?? {};
    expect(Object.keys(site["/alerts/{token}"]!).sort()).toEqual(["delete", "get", "patch"]);
    expect(site["/alerts/{token}/confirm"]!.post).toBeDefined();
    expect(site["/alerts/{token}/unsubscribe"]!.post).toBeDefined();
  });
});
