import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as feedRoute } from "@/app/v1/organizations/[organizationId]/listings/[file]/route";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { GET as getPetRoute } from "@/app/v1/pets/[petId]/route";
import { POST as endRoute } from "@/app/v1/pets/[petId]/stays/[stayId]/outcome/route";
import { GET as listStaysRoute } from "@/app/v1/pets/[petId]/stays/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { db, query } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { scheduleListingUploads } from "@/lib/listings/uploads/schedule";
import type { Pet } from "@/lib/pets/schemas/pet";
import type { Stay } from "@/lib/stays/schemas";
import { call, clearJobs, createPet, expectApiError, expectJson, newKey, newOrganization, staffSession, type StaffSession } from "./helpers";

// An animal whose stay ended other than by adoption is out of care
// (docs/decisions/023): gone from every list adopters and partners see (the
// list and its search, a shelter's page, near a place, by id, the pull feed,
// the listing sites' next file, applications), while its staff still read it
// and its stays.

let org: number;
let shelterKey: string;
let reader: string;
let platform: string;
let staff: StaffSession;
let ranger: Pet;
let keeper: Pet;
let site: bigint;

beforeAll(async () => {
  org = await newOrganization({ name: "Evanston Out Of Care", lat: 42.0451, lng: -87.6877 });
  shelterKey = (await newKey(["pets:read", "pets:write", "records:read", "records:write"], "shelter", { plan: "pro" }, org)).key;
  reader = (await newKey(["pets:read"], "adopters' site")).key;
  platform = (await newKey(["pets:read"], "listing partner", { plan: "pro" }, null)).key;
  staff = await staffSession(undefined, { organizationId: org });
  const create = (name: string) => createPet({ name, externalId: `OOC-${name}` }, { key: shelterKey });
  ranger = await create("Ranger");
  keeper = await create("Keeper");
  site = (
    await db().listingSite.create({
      data: { organizationId: BigInt(org), site: "petfinder", host: "members.petfinder.com", username: "ooc", password: "sealed", accountId: "OOC1" },
      select: { id: true },
    })
  ).id;
});

const ids = async (path: string, key = reader) => (await expectJson<Pet[]>(await call(listPets, path, { key }))).map((p) => p.id);
const feed = async (key = platform) => {
  const params = { organizationId: String(org), file: "petfinder.csv" };
  const res = await call(feedRoute, `/v1/organizations/${org}/listings/petfinder.csv`, { key, params });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer()).toString("utf8");
};
const publicViews = async () => ({
  list: (await ids("/v1/pets?limit=100")).includes(ranger.id),
  search: (await ids("/v1/pets?q=Ranger")).includes(ranger.id),
  shelterPage: (await ids(`/v1/pets?organizationId=${org}`)).includes(ranger.id),
  near: (await ids("/v1/pets?near=42.05,-87.69&within=10km")).includes(ranger.id),
  byIdInList: (await ids(`/v1/pets?id=${ranger.id}`)).includes(ranger.id),
  partnersList: (await ids(`/v1/pets?organizationId=${org}`, platform)).includes(ranger.id),
  getPet: (await call(getPetRoute, `/v1/pets/${ranger.id}`, { key: reader, params: { petId: String(ranger.id) } })).status === 200,
  pullFeed: (await feed()).includes("OOC-Ranger"),
});

describe("an outcome other than adoption", () => {
  it("transferredOut: gone from every public list, the pull feed and the sites' next file (queued within the listing delay); staff still read it with its stays", async () => {
    expect(await publicViews()).toEqual({
      list: true,
      search: true,
      shelterPage: true,
      near: true,
      byIdInList: true,
      partnersList: true,
      getPet: true,
      pullFeed: true,
    });

    vi.stubEnv("LISTINGS_DELAY_SECONDS", "60");
    resetEnvCache();
    await scheduleListingUploads(); // everything before is seen
    await clearJobs();

    const [stay] = await expectJson<Stay[]>(
      await call(listStaysRoute, `/v1/pets/${ranger.id}/stays`, { key: shelterKey, params: { petId: String(ranger.id) } }),
    );
    const ended = await expectJson<Stay>(
      await call(endRoute, `/v1/pets/${ranger.id}/stays/${stay!.id}/outcome`, {
        method: "POST",
        key: shelterKey,
        params: { petId: String(ranger.id), stayId: String(stay!.id) },
        json: { type: "transferredOut", subtype: "To Chicago Animal Care" },
      }),
    );

    expect(await publicViews()).toEqual({
      list: false,
      search: false,
      shelterPage: false,
      near: false,
      byIdInList: false,
      partnersList: false,
      getPet: false,
      pullFeed: false,
    });
    // The animal still in care is untouched.
    expect(await ids(`/v1/pets?organizationId=${org}`)).toEqual([keeper.id]);
    expect(await feed()).toContain("OOC-Keeper");

    // The sites get a new file after the quiet period, built without it.
    expect((await scheduleListingUploads()).uploads).toBe(1);
    const [job] = await query<{ run_at: Date; payload: { siteId: string } }>(
      Prisma.sql`SELECT run_at, payload FROM graphile_worker._private_jobs WHERE payload->>'siteId' = ${String(site)}`,
    );
    expect((job!.run_at.getTime() - Date.now()) / 1000).toBeGreaterThan(50);
    expect((job!.run_at.getTime() - Date.now()) / 1000).toBeLessThanOrEqual(61);
    await clearJobs();
    vi.unstubAllEnvs();
    resetEnvCache();

    // Adopters cannot apply for it.
    const apply = await call(applyRoute, `/v1/pets/${ranger.id}/applications`, {
      method: "POST",
      key: (await newKey(["pets:read", "applications:write"], "forwarder")).key,
      params: { petId: String(ranger.id) },
      json: { name: "Sam", email: "sam.ooc@example.org", home: "house", message: "Hello", consent: true },
    });
    await expectApiError(apply, 404, "not_found");

    // Its staff: the animal by id (the pet page reads ?id=), and its stays.
    expect((await call(getPetRoute, `/v1/pets/${ranger.id}`, { headers: staff.headers, params: { petId: String(ranger.id) } })).status).toBe(200);
    expect((await expectJson<Pet[]>(await call(listPets, `/v1/pets?id=${ranger.id}`, { headers: staff.headers }))).map((p) => p.id)).toEqual([ranger.id]);
    expect(
      await expectJson<Stay[]>(await call(listStaysRoute, `/v1/pets/${ranger.id}/stays`, { headers: staff.headers, params: { petId: String(ranger.id) } })),
    ).toEqual([ended]);
    // Not on the staff's lists either (they are the adopters' lists), and not for another organisation's staff.
    expect((await expectJson<Pet[]>(await call(listPets, `/v1/pets?organizationId=${org}`, { headers: staff.headers }))).map((p) => p.id)).toEqual([keeper.id]);
    const otherStaff = await staffSession();
    expect((await call(getPetRoute, `/v1/pets/${ranger.id}`, { headers: otherStaff.headers, params: { petId: String(ranger.id) } })).status).toBe(404);
  });
});

describe("finding the animals that left (?inCare=false)", () => {
  it("lists its organisation's animals out of care to its staff and its keys with records:read (a platform admin: everyone's), none in care; 403 to adopters and partners", async () => {
    // Ranger left in the test above; Keeper is still in care.
    const outOfCare = async (headers: Record<string, string>, path = "/v1/pets?inCare=false") =>
      (await expectJson<Pet[]>(await call(listPets, path, { headers }))).map((p) => p.id);
    expect(await outOfCare(staff.headers)).toEqual([ranger.id]);
    expect(await outOfCare(staff.headers, "/v1/pets?inCare=false&q=ranger")).toEqual([ranger.id]);
    expect(await outOfCare(staff.headers, "/v1/pets?inCare=false&q=keeper")).toEqual([]);
    expect(await outOfCare(staff.headers, "/v1/pets?inCare=true&organizationId=" + org)).toEqual([keeper.id]);
    // Another organisation's staff see none of it; a platform admin sees it among everyone's.
    expect(await outOfCare((await staffSession()).headers)).not.toContain(ranger.id);
    const admin = await staffSession(undefined, { platformAdmin: true });
    const everyone = await outOfCare(admin.headers, `/v1/pets?inCare=false&limit=100`);
    expect(everyone).toContain(ranger.id);
    expect(everyone).not.toContain(keeper.id);
    // Keys: the shelter's own with records:read (an animal out of care is the organisation's record, docs/decisions/027); never adopters' or partners'.
    expect((await expectJson<Pet[]>(await call(listPets, "/v1/pets?inCare=false", { key: shelterKey }))).map((p) => p.id)).toEqual([ranger.id]);
    for (const key of [reader, platform]) await expectApiError(await call(listPets, "/v1/pets?inCare=false", { key }), 403, "forbidden");
    await expectApiError(await call(listPets, "/v1/pets?inCare=maybe", { key: reader }), 400, "invalid_query");
  });
});

describe("alerts", () => {
  it("an animal that left before the matcher saw its arrival is matched to no alert; one still in care is", async () => {
    const { matchAlerts } = await import("@/lib/alerts/matching");
    const { confirmedAlert } = await import("./alerts-helpers");
    const site = (await newKey(["pets:read", "applications:write"], "alerts site")).key;
    await confirmedAlert(site, "everything.ooc@example.org");
    await matchAlerts(); // what came before
    const create = (name: string) => createPet({ name }, { key: shelterKey });
    const gone = await create("Gone Before Dawn");
    const here = await create("Here To Stay");
    const [stay] = await expectJson<Stay[]>(await call(listStaysRoute, `/v1/pets/${gone.id}/stays`, { key: shelterKey, params: { petId: String(gone.id) } }));
    await expectJson(
      await call(endRoute, `/v1/pets/${gone.id}/stays/${stay!.id}/outcome`, {
        method: "POST",
        key: shelterKey,
        params: { petId: String(gone.id), stayId: String(stay!.id) },
        json: { type: "returnedToOwner" },
      }),
    );
    await matchAlerts();
    const matched = async (petId: number) => db().alertMatch.count({ where: { petId: BigInt(petId) } });
    expect(await matched(gone.id)).toBe(0);
    expect(await matched(here.id)).toBe(1);
  });
});

describe("imports", () => {
  it("an import opens each new animal's first stay; 'missing means adopted' ends the stays of the absent animals in care with an adoption and leaves those out of care alone", async () => {
    const { PETFINDER_COLUMNS } = await import("@/lib/listings/formats/petfinder");
    const { importFile } = await import("./imports-helpers");
    const file = (ids: string[]) =>
      [
        PETFINDER_COLUMNS.join(","),
        ...ids.map((id) => PETFINDER_COLUMNS.map((c) => (c === "ID" || c === "AnimalName" ? id : c === "Type" ? "Dog" : "")).join(",")),
      ].join("\r\n") + "\r\n";
    const importOrg = await newOrganization({ name: "Importing Shelter" });
    const importKey = (await newKey(["pets:read", "pets:write", "records:read", "records:write"], "importer", { plan: "pro" }, importOrg)).key;
    await importFile({ key: importKey }, file(["IM-1", "IM-2", "IM-3"]));
    const idOf = async (externalId: string) =>
      Number((await db().pet.findFirstOrThrow({ where: { organizationId: BigInt(importOrg), externalId }, select: { id: true } })).id);
    const staysOf = async (externalId: string) => {
      const id = await idOf(externalId);
      return expectJson<Stay[]>(await call(listStaysRoute, `/v1/pets/${id}/stays`, { key: importKey, params: { petId: String(id) } }));
    };
    for (const id of ["IM-1", "IM-2", "IM-3"]) expect((await staysOf(id)).map((s) => [s.intake.type, s.outcome])).toEqual([["otherIntake", null]]);

    // IM-3 left another way before the next import.
    const im3 = await idOf("IM-3");
    const [stay] = await staysOf("IM-3");
    await expectJson(
      await call(endRoute, `/v1/pets/${im3}/stays/${stay!.id}/outcome`, {
        method: "POST",
        key: importKey,
        params: { petId: String(im3), stayId: String(stay!.id) },
        json: { type: "diedInCare" },
      }),
    );

    const report = await importFile({ key: importKey }, file(["IM-1"]), { missing: "adopted" });
    expect(report.status).toBe("done");
    expect(report.counts).toMatchObject({ adopted: 1 });
    expect((await staysOf("IM-2")).map((s) => s.outcome?.type)).toEqual(["adoption"]);
    expect((await staysOf("IM-3")).map((s) => s.outcome?.type)).toEqual(["diedInCare"]);
    expect(await db().pet.findUniqueOrThrow({ where: { id: BigInt(im3) }, select: { status: true, inCare: true } })).toEqual({
      status: "available",
      inCare: false,
    });
  });
});
