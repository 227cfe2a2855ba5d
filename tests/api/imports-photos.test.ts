import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { PETFINDER_COLUMNS } from "@/lib/listings/formats/petfinder";
import { newKey, newOrganization } from "./helpers";
import { importFile, NO_DNS } from "./imports-helpers";

// Photos an import names by URL, fetched in the background job from a real
// HTTP server on 127.0.0.1: through the outbound guard (a private address
// needs OUTBOUND_ALLOW_PRIVATE), redirects followed and each checked, then
// through the photo pipeline; a URL fetched before for the animal is not
// fetched again, and a photo that fails is counted and listed while its
// animal is imported anyway.

const hits = new Map<string, number>();
let jpeg: Buffer;
let png: Buffer;
let server: http.Server;
let base: string;

beforeAll(async () => {
  jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#c97d4a" } })
    .jpeg()
    .toBuffer();
  png = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#4a7dc9" } })
    .png()
    .toBuffer();
  server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === "/a.jpg") return res.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg);
    if (path === "/b.png") return res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (path === "/moved") return res.writeHead(302, { location: "/b.png" }).end();
    if (path.startsWith("/loop")) return res.writeHead(301, { location: `/loop${path.length}` }).end();
    if (path === "/to-metadata") return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (path === "/text") return res.writeHead(200, { "content-type": "text/plain" }).end("not an image");
    if (path.startsWith("/n/")) return res.writeHead(200, { "content-type": "image/png" }).end(png);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  vi.unstubAllEnvs();
  resetEnvCache();
});

function allowPrivate(on: boolean) {
  vi.stubEnv("OUTBOUND_ALLOW_PRIVATE", on ? "true" : "false");
  resetEnvCache();
}

function file(rows: Record<string, string>[]): string {
  return [PETFINDER_COLUMNS.join(","), ...rows.map((row) => PETFINDER_COLUMNS.map((c) => `"${row[c] ?? ""}"`).join(","))].join("\n") + "\n";
}

const photosOf = (organizationId: number, externalId: string) =>
  db().petPhoto.findMany({
    where: { pet: { organizationId: BigInt(organizationId), externalId } },
    orderBy: { position: "asc" },
    select: { sourceUrl: true, width: true, files: true },
  });

describe("photos named by URL", () => {
  it("are fetched through the guard and the photo pipeline, redirects followed; failures counted and listed; a re-import fetches nothing twice", async () => {
    allowPrivate(true);
    const org = await newOrganization({ name: "Photo Shelter" });
    const { key } = await newKey(["pets:read", "pets:write"], "photos", { plan: "pro" }, org);
    const rows = [
      { ID: "PH-1", AnimalName: "Snap", Type: "Dog", photo1: `${base}/a.jpg`, photo2: `${base}/moved`, photo3: `${base}/missing.jpg` },
      { ID: "PH-2", AnimalName: "Loopy", Type: "Cat", photo1: `${base}/loop`, photo2: `${base}/text`, photo3: `${base}/to-metadata` },
    ];
    const report = await importFile({ key }, file(rows));
    expect(report.counts).toMatchObject({ created: 2, rejected: 0 });
    expect(report.photos).toEqual({ queued: 6, stored: 2, failed: 4, skipped: 0 });
    const failures = report.errors.filter((e) => e.field === "photo").map((e) => [e.line, e.message]);
    expect(failures).toEqual(
      expect.arrayContaining([
        [2, expect.stringMatching(/missing\.jpg": answered 404/)],
        [3, expect.stringMatching(/loop": redirected more than 3 times/)],
        [3, expect.stringMatching(/text": /)],
        [3, expect.stringMatching(/to-metadata": The address 169\.254\.169\.254 is not a public address/)],
      ]),
    );
    // The first photo stays the cover; each photo through the pipeline (WebP variants, never enlarged).
    const snap = await photosOf(org, "PH-1");
    expect(snap.map((p) => p.sourceUrl)).toEqual([`${base}/a.jpg`, `${base}/moved`]);
    expect(snap[0]).toMatchObject({ width: 800 });
    expect(Object.keys(snap[0]!.files as object).sort()).toEqual(["320", "640"]);
    // Loopy is imported anyway, without photos.
    expect(await photosOf(org, "PH-2")).toEqual([]);
    expect(hits.get("/loop")).toBe(1);
    expect(hits.get("/loop5")).toBe(1);

    // Again: the stored ones are not fetched again; the failed ones are tried again.
    const again = await importFile({ key }, file(rows));
    expect(again.counts).toMatchObject({ unchanged: 2 });
    expect(again.photos).toEqual({ queued: 4, stored: 0, failed: 4, skipped: 0 });
    expect(hits.get("/a.jpg")).toBe(1);
    expect(hits.get("/b.png")).toBe(1);
    expect(await photosOf(org, "PH-1")).toHaveLength(2);
  });

  it("a private address is refused unless the outbound switch allows it (WEBHOOK_ALLOW_PRIVATE as its alias); the animal is imported anyway", async () => {
    allowPrivate(false);
    const org = await newOrganization({ name: "Public Only Shelter" });
    const { key } = await newKey(["pets:read", "pets:write"], "public", { plan: "pro" }, org);
    const before = hits.get("/b.png") ?? 0;
    const refused = await importFile({ key }, file([{ ID: "PR-1", AnimalName: "Private", Type: "Dog", photo1: `${base}/b.png` }]), {}, NO_DNS);
    expect(refused).toMatchObject({ counts: { created: 1 }, photos: { queued: 1, stored: 0, failed: 1, skipped: 0 } });
    expect(refused.errors).toEqual([
      {
        line: 2,
        field: "photo",
        message: `"${base}/b.png": The address 127.0.0.1 is not a public address (loopback, private, shared or reserved): photos are only fetched from public addresses.`,
      },
    ]);
    expect(hits.get("/b.png") ?? 0).toBe(before);

    vi.stubEnv("OUTBOUND_ALLOW_PRIVATE", undefined as unknown as string);
    delete process.env.OUTBOUND_ALLOW_PRIVATE;
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    resetEnvCache();
    const allowed = await importFile({ key }, file([{ ID: "PR-1", AnimalName: "Private", Type: "Dog", photo1: `${base}/b.png` }]));
    expect(allowed.photos).toEqual({ queued: 1, stored: 1, failed: 0, skipped: 0 });
  });

  it("a photo over the size limit fails on its own", async () => {
    allowPrivate(true);
    const { key } = await newKey(["pets:read", "pets:write"], "limits");
    const report = await importFile(
      { key },
      file([{ ID: "BIG-1", AnimalName: "Big", Type: "Dog", photo1: `${base}/a.jpg` }]),
      {},
      { ...NO_DNS, limits: { maxBytes: 1000, timeoutMs: 10_000, maxRedirects: 3 } },
    );
    expect(report.photos).toEqual({ queued: 1, stored: 0, failed: 1, skipped: 0 });
    expect(report.errors[0]!.message).toMatch(/is larger than/);
  });
});

describe("how many photos an import fetches, decided before it fetches any", () => {
  const hitsUnder = (prefix: string) => [...hits.entries()].filter(([path]) => path.startsWith(prefix)).reduce((n, [, count]) => n + count, 0);
  const mapping = JSON.stringify({ externalId: "Ref", name: "Name", species: "Kind", photoUrls: "Photos" });
  const generic = (rows: [string, string, string[]][]) =>
    ["Ref,Name,Kind,Photos", ...rows.map(([ref, name, urls]) => `${ref},${name},Dog,"${urls.join(" ")}"`)].join("\n") + "\n";

  it("at most the 10 an animal holds: a cell of 14 addresses fetches the first 10; the others are counted and said", async () => {
    allowPrivate(true);
    const org = await newOrganization({ name: "Many Photos Shelter" });
    const { key } = await newKey(["pets:read", "pets:write"], "many", { plan: "pro" }, org);
    const urls = Array.from({ length: 14 }, (_, i) => `${base}/n/many-${i + 1}.jpg`);
    const report = await importFile({ key }, generic([["M-1", "Many", urls]]), { mapping });
    expect(report.photos).toEqual({ queued: 10, stored: 10, failed: 0, skipped: 4 });
    expect(report.errors).toEqual([
      { line: 2, field: "photo", message: "4 photo addresses left out: an animal holds at most 10 photos, and the row names more" },
    ]);
    expect(hitsUnder("/n/many-")).toBe(10);
    expect(hits.get("/n/many-11.jpg")).toBeUndefined();
    expect((await photosOf(org, "M-1")).map((p) => p.sourceUrl)).toEqual(urls.slice(0, 10));
  });

  it("an animal that has photos takes only as many more as it has room for", async () => {
    allowPrivate(true);
    const org = await newOrganization({ name: "Room Shelter" });
    const { key } = await newKey(["pets:read", "pets:write"], "room", { plan: "pro" }, org);
    const first = Array.from({ length: 8 }, (_, i) => `${base}/n/room-${i + 1}.jpg`);
    expect((await importFile({ key }, generic([["R-1", "Roomy", first]]), { mapping })).photos).toMatchObject({ stored: 8 });
    const more = Array.from({ length: 5 }, (_, i) => `${base}/n/room-more-${i + 1}.jpg`);
    const report = await importFile({ key }, generic([["R-1", "Roomy", more]]), { mapping });
    expect(report.photos).toEqual({ queued: 2, stored: 2, failed: 0, skipped: 3 });
    expect(report.errors).toEqual([{ line: 2, field: "photo", message: "3 photo addresses left out: the animal already has 8 of its 10 photos" }]);
    expect(hitsUnder("/n/room-more-")).toBe(2);
    expect(await photosOf(org, "R-1")).toHaveLength(10);
  });

  it("at most so many per import, and per organisation in a day; a dry run counts the same and fetches none", async () => {
    allowPrivate(true);
    const org = await newOrganization({ name: "Allowance Shelter" });
    const { key } = await newKey(["pets:read", "pets:write"], "allowance", { plan: "pro" }, org);
    const allowance = { ...NO_DNS, photoAllowance: { perImport: 3, perDay: 5 } };
    const urls = (tag: string) => [`${base}/n/${tag}-1.jpg`, `${base}/n/${tag}-2.jpg`];
    const dry = await importFile(
      { key },
      generic([
        ["A-1", "Ada", urls("a")],
        ["A-2", "Bo", urls("b")],
      ]),
      { mapping, dryRun: "true" },
      allowance,
    );
    expect(dry.photos).toEqual({ queued: 3, stored: 0, failed: 0, skipped: 1 });
    const first = await importFile(
      { key },
      generic([
        ["A-1", "Ada", urls("a")],
        ["A-2", "Bo", urls("b")],
      ]),
      { mapping },
      allowance,
    );
    expect(first.photos).toEqual({ queued: 3, stored: 3, failed: 0, skipped: 1 });
    expect(first.errors).toEqual([
      {
        line: 0,
        field: "photo",
        message:
          "1 photo address left out: an import fetches at most 3 photos, and an organisation 5 a day; import the file again later to fetch them (photos already stored are not fetched again)",
      },
    ]);
    // The day's 5: 3 fetched, so 2 more today.
    const second = await importFile(
      { key },
      generic([
        ["A-3", "Cy", urls("c")],
        ["A-4", "Di", urls("d")],
      ]),
      { mapping },
      allowance,
    );
    expect(second.photos).toEqual({ queued: 2, stored: 2, failed: 0, skipped: 2 });
    expect(hitsUnder("/n/a-") + hitsUnder("/n/b-") + hitsUnder("/n/c-") + hitsUnder("/n/d-")).toBe(5);
  });
});
