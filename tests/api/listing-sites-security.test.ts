import fs from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as createSiteRoute } from "@/app/v1/listing-sites/route";
import { DELETE as deleteSiteRoute, PATCH as patchSiteRoute } from "@/app/v1/listing-sites/[siteId]/route";
import { GET as historyRoute } from "@/app/v1/listing-sites/history/route";
import { POST as startUploadRoute } from "@/app/v1/listing-sites/[siteId]/uploads/route";
import { POST as testRoute } from "@/app/v1/listing-sites/test/route";
import { GET as feedRoute } from "@/app/v1/organizations/[organizationId]/listings/[file]/route";
import { PATCH as patchPetRoute } from "@/app/v1/pets/[petId]/route";
import { setClock } from "@/lib/clock";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import { CounterStoreUnavailable, type CounterStore } from "@/lib/rate-limit/store";
import { db, query } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { runUpload } from "@/lib/listings/uploads/run";
import type { ListingSiteHistoryEntry, ListingSiteView, ListingUpload } from "@/lib/listings/uploads/schemas";
import { CONNECTION_TEST_BUDGETS } from "@/lib/listings/uploads/schemas";
import { decryptSecret, encryptSecret } from "@/lib/core/secrets";
import { resealStaleSecrets } from "@/lib/webhooks/service";
import { startFtpServer, type TestFtpServer } from "@/tests/ftp-server";
import {
  allowPrivateWebhooks,
  call,
  clearJobs,
  expectApiError,
  expectJson,
  FIRST_ORG,
  newKey,
  newOrganization,
  staffSession,
  type StaffSession,
} from "./helpers";

// Issue 40, the listing sites' part: one organisation's key or listing site
// can never take the service, other organisations' accounts or their
// background work down with it. Against the real FTP server in this process
// (tests/ftp-server.ts) and PostgreSQL:
//   1. the sealed password goes only where it was given for, and every
//      create, change and delete is in an audit trail staff read;
//   2. "Upload now" queues one upload at a time, and a whole upload has a deadline;
//   3. the connection test is budgeted, keeps to the sites' own ports, and
//      never repeats a server's text;
//   4. FTP passwords have a key of their own, re-sealed after a rotation,
//      and work without SESSION_SECRET (a local setup);
//   5. the pull feed is kept until the animals change, and is a download.

allowPrivateWebhooks();

const PASSWORD = "correct horse battery";
let ftp: TestFtpServer;
let staff: StaffSession;

beforeAll(async () => {
  vi.stubEnv("PUBLIC_BASE_URL", "https://adopt.shelter.example/v1");
  vi.stubEnv("LISTINGS_FTP_TIMEOUT_SECONDS", "5");
  resetEnvCache();
  ftp = await startFtpServer("shelter", PASSWORD);
  staff = await staffSession();
  const dog = await db().pet.create({ data: { name: "Biscuit", categoryId: 1n, organizationId: BigInt(FIRST_ORG), externalId: "B-1", breed: "Beagle" } });
  for (const [position, colour] of ["#884422", "#224488"].entries()) {
    const key = `biscuit-${position}.webp`;
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: colour } })
      .webp()
      .toBuffer();
    await db().photoFile.create({ data: { key, contentType: "image/webp", bytes: new Uint8Array(bytes) } });
    await db().petPhoto.create({ data: { petId: dog.id, position, width: 40, height: 30, placeholder: "data:,", files: { "1280": key }, fileKeys: [key] } });
  }
});

afterAll(async () => {
  await ftp.close();
  vi.unstubAllEnvs();
  resetEnvCache();
});

afterEach(() => setClock(undefined));

type Headers = Record<string, string>;
const asStaff = (who: StaffSession = staff) => ({ headers: who.headers });

async function addSite(json: Record<string, unknown>, caller: { headers?: Headers; key?: string } = asStaff()): Promise<ListingSiteView> {
  const res = await call(createSiteRoute, "/v1/listing-sites", {
    method: "POST",
    ...caller,
    json: { site: "adoptapet", host: ftp.host, port: ftp.port, username: ftp.username, password: PASSWORD, ...json },
  });
  return expectJson<ListingSiteView>(res, 201);
}

function patchSite(id: number, json: unknown, caller: { headers?: Headers; key?: string } = asStaff()) {
  return call(patchSiteRoute, `/v1/listing-sites/${id}`, { method: "PATCH", ...caller, params: { siteId: String(id) }, json });
}

function pressUploadNow(id: number, caller: { headers?: Headers; key?: string } = asStaff()) {
  return call(startUploadRoute, `/v1/listing-sites/${id}/uploads`, { method: "POST", ...caller, params: { siteId: String(id) } });
}

/** Takes the site's queued jobs off the queue and runs them here (no worker runs in this file); answers the uploads they made. */
async function runQueued(siteId: number): Promise<ListingUpload[]> {
  const jobs = await query<{ payload: Record<string, unknown> }>(Prisma.sql`
    DELETE FROM graphile_worker._private_jobs
     WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'listing-upload') AND payload->>'siteId' = ${String(siteId)}
    RETURNING payload`);
  for (const job of jobs) await runUpload(job.payload as never);
  const rows = await db().listingUpload.findMany({ where: { siteId: BigInt(siteId) }, orderBy: { id: "desc" }, take: jobs.length });
  return rows.map((r) => ({ outcome: r.outcome, error: r.error, photos: r.photos }) as ListingUpload);
}

const stored = (id: number) => db().listingSite.findUniqueOrThrow({ where: { id: BigInt(id) } });

describe("1. the sealed password goes only where it was given for", () => {
  it("a PATCH that changes host, port, username or secure without the password is 400 password_required, and changes nothing", async () => {
    const site = await addSite({});
    const before = await stored(site.id);
    for (const [field, value] of [
      ["host", "127.0.0.2"],
      ["port", ftp.port + 1],
      ["username", "someone-else"],
      ["secure", true],
    ] as const) {
      const error = await expectApiError(await patchSite(site.id, { [field]: value }), 400, "password_required");
      expect(error.message).toContain(field);
      expect(error.details).toEqual([{ field: "password", issue: expect.stringContaining("host, port, secure, username") }]);
      // Nor with other fields beside it.
      await expectApiError(await patchSite(site.id, { [field]: value, enabled: false }), 400, "password_required");
    }
    expect(await stored(site.id)).toEqual(before);
    expect(await db().listingSiteAudit.count({ where: { siteId: BigInt(site.id), action: "updated" } })).toBe(0);

    // The values it already has move nothing: no password needed (the staff form sends them all).
    const same = await expectJson<ListingSiteView>(
      await patchSite(site.id, { host: ftp.host, port: ftp.port, username: ftp.username, secure: false, enabled: false }),
    );
    expect(same).toMatchObject({ host: ftp.host, port: ftp.port, enabled: false });
    // With the password in the same request, the move is made.
    const moved = await expectJson<ListingSiteView>(await patchSite(site.id, { username: "shelter-2", password: "the new account's password", enabled: true }));
    expect(moved).toMatchObject({ username: "shelter-2", enabled: true });
    expect((await stored(site.id)).password).not.toBe(before.password);
    await call(deleteSiteRoute, `/v1/listing-sites/${site.id}`, { method: "DELETE", ...asStaff(), params: { siteId: String(site.id) } });
  });

  it("a holder of listings:manage cannot have 'Upload now' send the stored password to a server of theirs", async () => {
    await clearJobs();
    const site = await addSite({});
    // A server of the attacker's that would take any login it is sent.
    const theirs = await startFtpServer(ftp.username, PASSWORD);
    try {
      const { key } = await newKey(["listings:manage"], "rogue integration");
      await expectApiError(await patchSite(site.id, { host: theirs.host, port: theirs.port }, { key }), 400, "password_required");
      await expectApiError(await patchSite(site.id, { port: theirs.port }, { key }), 400, "password_required");
      expect((await pressUploadNow(site.id, { key })).status).toBe(202);
      const [upload] = await runQueued(site.id);
      expect(upload!.outcome).toBe("sent");
      expect(theirs.logins).toEqual([]);
      expect(ftp.logins.at(-1)).toEqual({ username: ftp.username, ok: true });
    } finally {
      await theirs.close();
    }
  });

  it("every create, change and delete is in the history staff read: who, which fields, before and after, never the password", async () => {
    const integration = await newKey(["listings:manage"], "Shelter sync");
    const created = await call(createSiteRoute, "/v1/listing-sites", {
      method: "POST",
      key: integration.key,
      json: { site: "rescuegroups", host: ftp.host, port: ftp.port, username: "rg-user", password: "first-secret-password", accountId: "5678" },
    });
    const site = await expectJson<ListingSiteView>(created, 201);
    const moved = await patchSite(site.id, { host: "127.0.0.3", password: "second-secret-password" });
    expect(moved.status).toBe(200);
    const switched = await patchSite(site.id, { enabled: false, accountId: "9999" });
    expect(switched.status).toBe(200);
    // A request that changes nothing leaves nothing.
    expect((await patchSite(site.id, { enabled: false })).status).toBe(200);
    const removed = await call(deleteSiteRoute, `/v1/listing-sites/${site.id}`, { method: "DELETE", ...asStaff(), params: { siteId: String(site.id) } });
    expect(removed.status).toBe(204);

    const res = await call(historyRoute, `/v1/listing-sites/history?siteId=${site.id}`, asStaff());
    const text = await res.clone().text();
    const entries = await expectJson<ListingSiteHistoryEntry[]>(res);
    expect(entries.map((e) => e.action)).toEqual(["deleted", "updated", "updated", "created"]);
    const [deleted, second, first, creation] = entries as [ListingSiteHistoryEntry, ListingSiteHistoryEntry, ListingSiteHistoryEntry, ListingSiteHistoryEntry];
    expect(creation).toMatchObject({
      siteId: site.id,
      organizationId: FIRST_ORG,
      site: "rescuegroups",
      actor: { kind: "api_key", id: integration.id, name: "Shelter sync" },
      requestId: created.headers.get("x-request-id"),
      fields: ["host", "port", "secure", "username", "password", "accountId", "enabled"],
      before: null,
      after: { host: ftp.host, port: ftp.port, secure: false, username: "rg-user", accountId: "5678", enabled: true },
    });
    expect(first).toMatchObject({
      actor: { kind: "staff", id: staff.staffId, email: staff.email },
      requestId: moved.headers.get("x-request-id"),
      fields: ["host", "password"],
      before: { host: ftp.host },
      after: { host: "127.0.0.3" },
    });
    expect(second).toMatchObject({
      fields: ["accountId", "enabled"],
      before: { accountId: "5678", enabled: true },
      after: { accountId: "9999", enabled: false },
    });
    expect(deleted).toMatchObject({
      requestId: removed.headers.get("x-request-id"),
      fields: [],
      before: { host: "127.0.0.3", username: "rg-user", enabled: false },
      after: null,
    });
    expect(text).not.toMatch(/first-secret-password|second-secret-password/);
    const rows = await db().listingSiteAudit.findMany();
    expect(JSON.stringify(rows, (_, value: unknown) => (typeof value === "bigint" ? String(value) : value))).not.toMatch(/secret-password|v1\.|ftp1\./);

    // The organisation's whole history (deleted sites' included), newest first, paged.
    const page = await call(historyRoute, "/v1/listing-sites/history?limit=2", asStaff());
    expect((await expectJson<ListingSiteHistoryEntry[]>(page.clone())).map((e) => e.action)).toEqual(["deleted", "updated"]);
    const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get("link") ?? "")?.[1];
    expect(next).toBeDefined();
    const older = await expectJson<ListingSiteHistoryEntry[]>(await call(historyRoute, next!, asStaff()));
    expect(older[0]!.id).toBeLessThan(entries[1]!.id);

    // Another organisation's staff see none of it; API keys (no audit:read) none at all.
    const elsewhere = await staffSession(undefined, { organizationId: await newOrganization() });
    expect(await expectJson<ListingSiteHistoryEntry[]>(await call(historyRoute, "/v1/listing-sites/history", asStaff(elsewhere)))).toEqual([]);
    await expectApiError(await call(historyRoute, "/v1/listing-sites/history", { key: integration.key }), 403, "forbidden");

    // Append-only: no statement rewrites it.
    await expect(query(Prisma.sql`UPDATE listing_site_audit SET actor_name = 'nobody'`)).rejects.toThrow(/append-only/);
    await expect(query(Prisma.sql`DELETE FROM listing_site_audit`)).rejects.toThrow(/append-only/);
  });
});

describe("2. Upload now", () => {
  it("queues one upload at a time: while one waits, another press is 409 upload_already_queued; once it runs, one more may wait", async () => {
    await clearJobs();
    const site = await addSite({});
    const first = await expectJson<ListingUpload>(await pressUploadNow(site.id), 202);
    const refused = await expectApiError(await pressUploadNow(site.id), 409, "upload_already_queued");
    expect(refused.message).toContain(`/v1/listing-sites/${site.id}/uploads`);
    expect(await db().listingUpload.count({ where: { siteId: BigInt(site.id) } })).toBe(1);
    // Another site of the organisation has its own.
    const other = await addSite({ username: "shelter" });
    expect((await pressUploadNow(other.id)).status).toBe(202);

    // The first is running now (a worker holds it): one more may wait behind it, and no more.
    await query(Prisma.sql`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'a worker' WHERE key = ${`listing-manual-${site.id}`}`);
    const second = await expectJson<ListingUpload>(await pressUploadNow(site.id), 202);
    expect(second.id).not.toBe(first.id);
    await expectApiError(await pressUploadNow(site.id), 409, "upload_already_queued");

    // Once none waits, pressing works again.
    await clearJobs();
    expect((await pressUploadNow(site.id)).status).toBe(202);
    const uploads = await runQueued(site.id);
    expect(uploads.map((u) => u.outcome)).toEqual(["sent"]);
    expect((await pressUploadNow(site.id)).status).toBe(202);
    await clearJobs();
  });

  it("a whole upload has a deadline: a slow server is left after LISTINGS_UPLOAD_TIMEOUT_SECONDS, and the photos it did get are not sent again", async () => {
    await clearJobs();
    // Every file takes 700 ms to land (each step far under its own 5 s): two photos, import.cfg and pets.csv take longer than 2 s.
    const slow = await startFtpServer(ftp.username, PASSWORD, { slowRenameMs: 700 });
    vi.stubEnv("LISTINGS_UPLOAD_TIMEOUT_SECONDS", "2");
    resetEnvCache();
    try {
      const site = await addSite({ port: slow.port });
      expect((await pressUploadNow(site.id)).status).toBe(202);
      const [stopped] = await runQueued(site.id);
      expect(stopped).toMatchObject({ outcome: "failed", error: "The upload took longer than 2 s and was stopped." });
      // Retried as any failure is.
      const [retry] = await query<{ key: string }>(
        Prisma.sql`SELECT j.key FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'listing-upload' AND j.payload->>'siteId' = ${String(site.id)}`,
      );
      expect(retry?.key).toBe(`listing-retry-${site.id}`);
      const landed = Object.keys((await stored(site.id)).sentPhotos as Record<string, string>);
      expect(landed.every((name) => slow.read(name) !== null)).toBe(true);

      vi.stubEnv("LISTINGS_UPLOAD_TIMEOUT_SECONDS", "60");
      resetEnvCache();
      const [done] = await runQueued(site.id);
      expect(done).toMatchObject({ outcome: "sent" });
      // Only the photos the stopped upload had not landed are sent.
      expect(done!.photos).toBe(2 - landed.length);
      expect(slow.read("photos/B-1-1.jpg")).not.toBeNull();
      expect(slow.read("photos/B-1-2.jpg")).not.toBeNull();
      expect(slow.read("pets.csv")).not.toBeNull();
    } finally {
      vi.stubEnv("LISTINGS_UPLOAD_TIMEOUT_SECONDS", undefined);
      resetEnvCache();
      await slow.close();
      await clearJobs();
    }
  });
});

/** A minimal FTP server that greets, then refuses: its text must never reach the caller. */
async function talkingServer(script: { greeting: string; onUser: string }): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.write(`${script.greeting}\r\n`);
    socket.on("data", (chunk) => {
      for (const line of chunk.toString().split("\r\n").filter(Boolean)) {
        socket.write(/^USER /i.test(line) ? `${script.onUser}\r\n` : "200 ACME-FTP says yes to everything\r\n");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("3. the connection test is no password oracle nor banner reader", () => {
  const test = (json: Record<string, unknown>, caller: { headers?: Headers; key?: string } = asStaff()) =>
    call(testRoute, "/v1/listing-sites/test", { method: "POST", ...caller, json: { site: "adoptapet", host: ftp.host, port: ftp.port, ...json } });

  /** Mid-hour, so that no test's counts straddle an hour or a day. */
  const midHour = () => setClock(new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 30 * 60_000));

  it("says a refused login, and any other failure, in its own words, never with the server's text", async () => {
    const wrong = await expectJson<{ ok: boolean; error: string }>(await test({ username: ftp.username, password: "not it" }));
    expect(wrong).toEqual({ ok: false, entries: [], error: "Login refused: check the user name and password." });
    const banner = await talkingServer({
      greeting: "220 ACME-FTP build 7.3.1 (internal host db-4) ready",
      onUser: "530 ACME-FTP: user kept in /etc/acme/users",
    });
    const busy = await talkingServer({ greeting: "421 ACME-FTP too many connections from 10.1.2.3", onUser: "" });
    try {
      const refused = await expectJson<{ ok: boolean; error: string }>(await test({ port: banner.port, username: "probe", password: "probe" }));
      expect(refused).toEqual({ ok: false, entries: [], error: "Login refused: check the user name and password." });
      const other = await expectJson<{ ok: boolean; error: string }>(await test({ port: busy.port, username: "probe2", password: "probe" }));
      expect(other.ok).toBe(false);
      expect(other.error).not.toMatch(/ACME|10\.1\.2\.3|too many/);
    } finally {
      await banner.close();
      await busy.close();
    }
  });

  it("reaches the sites' own hosts on their own FTP port only (create, change and test alike), before any lookup", async () => {
    for (const json of [
      { site: "petfinder", host: "members.petfinder.com", port: 22 },
      { site: "adoptapet", port: 443 },
      { site: "rescuegroups", host: "FTP.RescueGroups.org", port: 8021 },
    ]) {
      const body = { ...json, username: "probe", password: "probe" };
      const error = await expectApiError(await call(testRoute, "/v1/listing-sites/test", { method: "POST", ...asStaff(), json: body }), 400, "invalid_body");
      expect(error.details).toEqual([{ field: "port", issue: expect.stringMatching(/^must be 21 for /) }]);
      await expectApiError(
        await call(createSiteRoute, "/v1/listing-sites", {
          method: "POST",
          ...asStaff(),
          json: { ...body, accountId: json.site === "adoptapet" ? undefined : "X1" },
        }),
        400,
        "invalid_body",
      );
    }
    const site = await addSite({});
    await expectApiError(await patchSite(site.id, { host: "autoupload.adoptapet.com", port: 2121, password: "p" }), 400, "invalid_body");
  });

  it(`tries one account at most ${CONNECTION_TEST_BUDGETS.account.perHour} times an hour, whoever asks and however the user name is written, then 429 with Retry-After`, async () => {
    midHour();
    const { perHour } = CONNECTION_TEST_BUDGETS.account;
    const otherOrg = await newOrganization();
    const otherKey = await newKey(["listings:manage"], "another shelter's key", { plan: "pro" }, otherOrg);
    const tried = () => ftp.logins.filter((l) => l.username.toLowerCase() === "victim").length;
    for (let i = 0; i < perHour; i++) {
      const res = await test({ username: i % 2 ? "Victim" : "victim", password: `guess-${i}` }, i < 3 ? asStaff() : { key: otherKey.key });
      expect((await expectJson<{ ok: boolean }>(res)).ok).toBe(false);
    }
    expect(tried()).toBe(perHour);
    const refused = await test({ username: "VICTIM", password: "guess-again" }, { key: otherKey.key });
    expect((await expectApiError(refused, 429, "rate_limited")).message).toMatch(/This FTP account has been tried too often/);
    expect(Number(refused.headers.get("retry-after"))).toBe(30 * 60);
    // Nothing was sent to the server for it.
    expect(tried()).toBe(perHour);
    // Another account is not held back by it.
    expect((await expectJson<{ ok: boolean }>(await test({ username: ftp.username, password: PASSWORD }))).ok).toBe(true);
  });

  it("counts every test or makes none: without the counter store, 503 and nothing sent", async () => {
    const away: CounterStore = {
      hit: () => Promise.reject(new CounterStoreUnavailable(new Error("connection refused"))),
      sweep: () => Promise.resolve(0),
      peek: () => Promise.resolve([]),
      ping: () => Promise.reject(new Error("away")),
      close: () => Promise.resolve(),
    };
    await setCounterStore(away);
    try {
      const res = await test({ username: "uncounted", password: "x" });
      await expectApiError(res, 503, "service_unavailable");
      expect(res.headers.get("retry-after")).toBe("5");
      expect(ftp.logins.some((l) => l.username === "uncounted")).toBe(false);
    } finally {
      await setCounterStore(undefined);
    }
  });

  it(`lets one organisation make ${CONNECTION_TEST_BUDGETS.organization.perHour} tests an hour, then 429`, async () => {
    midHour();
    const org = await newOrganization();
    const shelter = await staffSession(undefined, { organizationId: org });
    const { perHour } = CONNECTION_TEST_BUDGETS.organization;
    for (let i = 0; i < perHour; i++) expect((await test({ username: `user-${i}`, password: "x" }, asStaff(shelter))).status).toBe(200);
    const refused = await test({ username: "user-last", password: "x" }, asStaff(shelter));
    expect((await expectApiError(refused, 429, "rate_limited")).message).toMatch(/Your organisation has made too many connection tests/);
    expect(ftp.logins.some((l) => l.username === "user-last")).toBe(false);
    // The first organisation's own budget is its own.
    expect((await test({ username: "user-last", password: "x" })).status).toBe(200);
  });
});

describe("4. FTP passwords at rest", () => {
  const OLD = "the-old-session-secret-of-at-least-32-chars";
  const NEW = "the-new-session-secret-of-at-least-32-chars";
  const secrets = (current: string | undefined, previous?: string) => {
    vi.stubEnv("SESSION_SECRET", current);
    vi.stubEnv("SESSION_SECRET_PREVIOUS", previous);
    resetEnvCache();
  };
  const original = process.env.SESSION_SECRET;
  afterEach(() => secrets(original));

  it("are sealed under a key of their own: the webhook secrets' key does not open them", async () => {
    const site = await addSite({});
    const sealed = (await stored(site.id)).password;
    expect(sealed).not.toContain(PASSWORD);
    expect(() => decryptSecret(sealed)).toThrow();
  });

  it("are sealed again after a SESSION_SECRET rotation, with the webhook secrets, so uploads work once the previous secret is gone and it opens nothing", async () => {
    await clearJobs();
    secrets(OLD);
    const site = await addSite({});
    const before = (await stored(site.id)).password;
    secrets(NEW, OLD);
    expect(await resealStaleSecrets()).toBeGreaterThanOrEqual(1);
    const after = (await stored(site.id)).password;
    expect(after).not.toBe(before);
    expect(await resealStaleSecrets()).toBe(0);
    // SESSION_SECRET_PREVIOUS removed: the upload still logs in.
    secrets(NEW);
    expect((await pressUploadNow(site.id)).status).toBe(202);
    expect((await runQueued(site.id))[0]).toMatchObject({ outcome: "sent" });
    // A leaked old secret opens nothing now.
    secrets(OLD);
    expect((await pressUploadNow(site.id)).status).toBe(202);
    expect((await runQueued(site.id))[0]).toMatchObject({ outcome: "failed", error: "The stored password cannot be read any more: enter it again." });
  });

  it("one sealed the old way (with the webhook secrets' key) still works, and is moved to its own key", async () => {
    await clearJobs();
    const site = await addSite({});
    await db().listingSite.update({ where: { id: BigInt(site.id) }, data: { password: encryptSecret(PASSWORD) } });
    expect(await resealStaleSecrets()).toBeGreaterThanOrEqual(1);
    const moved = (await stored(site.id)).password;
    expect(() => decryptSecret(moved)).toThrow();
    expect((await pressUploadNow(site.id)).status).toBe(202);
    expect((await runQueued(site.id))[0]).toMatchObject({ outcome: "sent" });
  });

  it("work without SESSION_SECRET (a local setup): sealed under the install's own secret, not a 500", async () => {
    await clearJobs();
    const cwd = process.cwd();
    const install = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-install-"));
    process.chdir(install);
    secrets(undefined);
    try {
      const site = await addSite({});
      expect((await stored(site.id)).password).not.toContain(PASSWORD);
      expect((await pressUploadNow(site.id)).status).toBe(202);
      expect((await runQueued(site.id))[0]).toMatchObject({ outcome: "sent" });
      expect(fs.existsSync(path.join(install, ".data", "session-secret"))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("5. the pull feed", () => {
  const feed = (site: string, headers: Headers = {}) =>
    call(feedRoute, `/v1/organizations/${FIRST_ORG}/listings/${site}.csv`, {
      key: reader,
      headers,
      params: { organizationId: String(FIRST_ORG), file: `${site}.csv` },
    });
  let reader: string;

  beforeAll(async () => {
    ({ key: reader } = await newKey(["pets:read"], "partner", { plan: "pro" }, null));
  });

  it("is a download: Content-Disposition attachment with the file's name, and nosniff", async () => {
    const res = await feed("petfinder");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="petfinder.csv"');
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  });

  it("is kept until the organisation's animals change, and never served older than they are", async () => {
    const first = await feed("adoptapet");
    const bytes = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get("etag")!;
    expect(bytes.toString()).toContain("Biscuit");
    // Written behind the API's back (no change recorded): the kept file is served, not built again.
    await query(Prisma.sql`UPDATE pets SET name = 'Behind the back' WHERE external_id = 'B-1'`);
    const kept = await feed("adoptapet");
    expect(Buffer.from(await kept.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await feed("adoptapet", { "if-none-match": etag })).status).toBe(304);
    // A change through the API (as on any instance) is in the very next answer.
    const dog = await db().pet.findFirstOrThrow({ where: { externalId: "B-1" } });
    const patched = await call(patchPetRoute, `/v1/pets/${dog.id}`, {
      method: "PATCH",
      ...asStaff(),
      params: { petId: String(dog.id) },
      json: { name: "Biscuit the Brave" },
    });
    expect(patched.status).toBe(200);
    const fresh = await feed("adoptapet", { "if-none-match": etag });
    expect(fresh.status).toBe(200);
    expect(Buffer.from(await fresh.arrayBuffer()).toString()).toContain("Biscuit the Brave");
    expect(fresh.headers.get("etag")).not.toBe(etag);
  });
});
