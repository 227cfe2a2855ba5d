import { beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchOrganization } from "@/app/v1/organizations/[organizationId]/route";
import { GET as getPet } from "@/app/v1/pets/[petId]/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { matchAlerts } from "@/lib/alerts/matching";
import { db } from "@/lib/db";
import { haversineKm } from "@/lib/organizations/geo";
import type { Organization } from "@/lib/organizations/schemas";
import { lookUpZip } from "@/lib/organizations/zip";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, createPet, expectApiError, expectJson, newKey, newOrganization, parseLink } from "./helpers";
import { confirmedAlert } from "./alerts-helpers";
import { endPlacement, newFoster, placeInFoster } from "./foster-helpers";

// Issue 50: an animal in a foster home is where the foster home is, for
// near search (its place, its distance, its paging) and for alerts, while
// its organisation shows foster homes; at its organisation's place
// otherwise, and at once again when it comes back. Adopters see that it is
// in a foster home and the home's city and region, never more.

let reader: string;
let manager: string;
let manhattan: number;
let chelsea: { lat: number; lng: number };
let brooklyn: { lat: number; lng: number };
let fosterInBrooklyn: number;
let cat: Pet;
let dog: Pet;

beforeAll(async () => {
  chelsea = (await lookUpZip("10001"))!;
  brooklyn = (await lookUpZip("11201"))!;
  manhattan = await newOrganization({ name: "Manhattan Cat Rescue", ...chelsea });
  ({ key: reader } = await newKey(["pets:read", "applications:write"], "site"));
  ({ key: manager } = await newKey(["pets:read", "pets:write", "organizations:manage"], "rescue", { plan: "pro" }, manhattan));
  fosterInBrooklyn = await newFoster(manhattan, { name: "Brooklyn Foster", postcode: "11201" });
  cat = await createPet({ name: "Pickle", categoryId: 2, status: "available" }, { key: manager });
  dog = await createPet({ name: "Rufus", categoryId: 1, status: "available" }, { key: manager });
});

async function near(query: string): Promise<Pet[]> {
  return expectJson<Pet[]>(await call(listPets, `/v1/pets?${query}&organizationId=${manhattan}&limit=100`, { key: reader }));
}
const ids = (pets: Pet[]) => pets.map((p) => p.id);
const shown = async (id: number) => expectJson<Pet>(await call(getPet, `/v1/pets/${id}`, { key: reader, params: { petId: String(id) } }));
const fosterLocation = async (value: string) =>
  call(patchOrganization, `/v1/organizations/${manhattan}`, {
    method: "PATCH",
    params: { organizationId: String(manhattan) },
    json: { fosterLocation: value },
    key: manager,
  });

describe("a Manhattan rescue's cat in a foster home in Brooklyn", () => {
  it("at the shelter: found near Chelsea, not near Brooklyn; not in a foster home", async () => {
    expect(ids(await near("near=10001&within=5km"))).toEqual([dog.id, cat.id]);
    expect(ids(await near("near=11201&within=5km"))).toEqual([]);
    expect(await shown(cat.id)).toMatchObject({ inFosterHome: false, fosterHome: null });
    // The two places are farther apart than the searches reach.
    expect(haversineKm(chelsea, brooklyn)).toBeGreaterThan(5);
  });

  it("placed: found near Brooklyn at the foster's ZIP code centre, no longer near Chelsea; its city and region shown", async () => {
    await placeInFoster(cat.id, fosterInBrooklyn);
    const inBrooklyn = await near("near=11201&within=5km");
    expect(ids(inBrooklyn)).toEqual([cat.id]);
    expect(inBrooklyn[0]).toMatchObject({ distanceKm: 0, inFosterHome: true, fosterHome: { city: "Brooklyn", region: "NY" } });
    const fromChelsea = await near("near=10001&within=20km");
    expect(ids(fromChelsea)).toEqual([dog.id, cat.id]);
    expect(fromChelsea[1]!.distanceKm).toBe(Math.round(haversineKm(chelsea, brooklyn) * 10) / 10);
    expect(ids(await near("near=10001&within=5km"))).toEqual([dog.id]);
    expect(await shown(cat.id)).toMatchObject({ inFosterHome: true, fosterHome: { city: "Brooklyn", region: "NY" } });
    expect(await shown(dog.id)).toMatchObject({ inFosterHome: false, fosterHome: null });
    // The plain list says the same.
    const list = await expectJson<Pet[]>(await call(listPets, `/v1/pets?organizationId=${manhattan}`, { key: reader }));
    expect(list.find((p) => p.id === cat.id)).toMatchObject({ inFosterHome: true, fosterHome: { city: "Brooklyn", region: "NY" } });
  });

  it("an organisation that shows its own place keeps the cat there, in a foster home but with no city", async () => {
    const org = await expectJson<Organization>(await fosterLocation("organization"));
    expect(org.fosterLocation).toBe("organization");
    expect(ids(await near("near=10001&within=5km"))).toEqual([dog.id, cat.id]);
    expect(ids(await near("near=11201&within=5km"))).toEqual([]);
    expect(await shown(cat.id)).toMatchObject({ inFosterHome: true, fosterHome: null });
    expect((await expectJson<Organization>(await fosterLocation("fosterHome"))).fosterLocation).toBe("fosterHome");
    expect(ids(await near("near=11201&within=5km"))).toEqual([cat.id]);
  });

  it("refuses a fosterLocation it does not know, naming the field", async () => {
    const error = await expectApiError(await fosterLocation("garden"), 400, "invalid_body");
    expect(error.details?.map((d) => d.field)).toEqual(["fosterLocation"]);
  });

  it("a foster without a position (no US ZIP code) leaves the cat at the shelter for near search, still in a foster home", async () => {
    await endPlacement(cat.id);
    const abroad = await newFoster(manhattan, { name: "Toronto Foster", city: "Toronto", region: "ON", postcode: null });
    await placeInFoster(cat.id, abroad);
    expect(ids(await near("near=10001&within=5km"))).toEqual([dog.id, cat.id]);
    expect(await shown(cat.id)).toMatchObject({ inFosterHome: true, fosterHome: { city: "Toronto", region: "ON" } });
    await endPlacement(cat.id);
    await placeInFoster(cat.id, fosterInBrooklyn);
  });

  it("an alert near Brooklyn matches the cat in its foster home; one near Chelsea does not", async () => {
    await confirmedAlert(reader, "brooklyn-cats@example.org", { categoryId: 2, near: "11201", within: "3mi" });
    await confirmedAlert(reader, "chelsea-cats@example.org", { categoryId: 2, near: "10001", within: "2mi" });
    // Another cat arrives while in the foster home (created, then placed before the matcher runs).
    const kitten = await createPet({ name: "Nib", categoryId: 2, status: "available" }, { key: manager });
    await placeInFoster(kitten.id, fosterInBrooklyn);
    await matchAlerts(new Date());
    const matched = await db().alertMatch.findMany({ where: { petId: BigInt(kitten.id) }, select: { alert: { select: { email: true } } } });
    expect(matched.map((m) => m.alert.email)).toEqual(["brooklyn-cats@example.org"]);
  });

  it("back at the shelter: at once at the shelter's point again", async () => {
    await endPlacement(cat.id);
    expect(ids(await near("near=10001&within=5km"))).toEqual([dog.id, cat.id]);
    expect(ids(await near("near=11201&within=5km"))).not.toContain(cat.id);
    expect(await shown(cat.id)).toMatchObject({ inFosterHome: false, fosterHome: null });
  });
});

describe("paging over shelters and foster homes together", () => {
  it("one order (distance, newest first) across both kinds of place, ties included, forwards and back", async () => {
    // Fosters at the shelter's own ZIP code centre (a tie with the shelter), in Brooklyn and in Queens.
    const sameSpot = await newFoster(manhattan, { name: "Chelsea Foster", postcode: "10001" });
    const queens = await newFoster(manhattan, { name: "Queens Foster", postcode: "11375" });
    const made: Pet[] = [];
    for (let i = 0; i < 12; i++) made.push(await createPet({ name: `Litter ${i}`, categoryId: 2, status: "available" }, { key: manager }));
    const home = [sameSpot, fosterInBrooklyn, queens, null];
    for (const [i, pet] of made.entries()) if (home[i % 4] !== null) await placeInFoster(pet.id, home[i % 4]!);
    const all = await near("near=10001&within=50km");
    const expected = [...all].sort((a, b) => a.distanceKm! - b.distanceKm! || b.id - a.id);
    expect(ids(all)).toEqual(ids(expected));
    expect(new Set(all.map((p) => p.distanceKm)).size).toBeGreaterThanOrEqual(3);
    // Pages of 2 forward, then back by rel="prev", lose and repeat nothing.
    const pages: string[] = [];
    const forward: Pet[] = [];
    for (let url: string | undefined = `/v1/pets?near=10001&within=50km&organizationId=${manhattan}&limit=2`; url;) {
      pages.push(url);
      const res = await call(listPets, url, { key: reader });
      forward.push(...(await expectJson<Pet[]>(res)));
      url = parseLink(res.headers.get("link")).next;
    }
    expect(ids(forward)).toEqual(ids(all));
    const back: Pet[][] = [];
    for (let url: string | undefined = pages.at(-1); url;) {
      const res = await call(listPets, url, { key: reader });
      back.unshift(await expectJson<Pet[]>(res));
      url = parseLink(res.headers.get("link")).prev;
    }
    expect(ids(back.flat())).toEqual(ids(all));
  });
});
