import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import type { Pet } from "@/lib/pets/schemas/pet";
import { sessionCookieName } from "@/lib/core/cookies";
import { createStaffSession } from "@/lib/sessions/service";
import { seedPets, staffSession } from "../api/helpers";

// The animal's page (app/(site)/pets/[id]/page.tsx) renders on the server
// through in-process calls to the /v1 handlers. It must not depend on the
// deprecated getPet: with the clock past getPet's sunset (when getPet answers
// 410), the page still finds the animal, through the list filtered by id.

const incoming = new Headers();
vi.mock("server-only", () => ({}));
vi.mock("next/headers", () => ({ headers: async () => incoming }));
vi.mock("next-intl/server", async () => (await import("../i18n")).nextIntlServerMock());

const SUNSET = new Date("2030-12-05T00:00:00Z");

let pet: Pet;
let staffId: number;

beforeAll(async () => {
  [pet] = (await seedPets([{ name: "Sunset survivor", categoryId: 3, status: "pending" }])) as [Pet];
  staffId = (await staffSession()).staffId;
  incoming.set("host", "localhost");
});

/** Moves the clock, with a browser session valid at that moment (the page forwards the browser's cookie). */
async function at(now: Date) {
  setClock(now);
  const { token } = await createStaffSession(BigInt(staffId), now);
  incoming.set("cookie", `${sessionCookieName()}=${token}`);
}

afterEach(() => setClock());

const page = () => import("@/app/(site)/pets/[id]/page");
const params = (id: string) => ({ params: Promise.resolve({ id }) });

/** The PetDetails element of the rendered page, whose props carry the animal. */
function detailsOf(tree: unknown): { initial: { pet: Pet } } {
  const children = (tree as { props: { children: unknown[] } }).props.children;
  const details = children.find((c) => (c as { props?: { initial?: unknown } })?.props?.initial !== undefined);
  return (details as { props: { initial: { pet: Pet } } }).props;
}

describe("the animal's page at and after getPet's sunset", () => {
  it.each([
    ["before the sunset", new Date("2027-01-01T00:00:00Z")],
    ["at the sunset", SUNSET],
    ["years after it", new Date("2034-06-01T00:00:00Z")],
  ])("%s: the page and its title show the animal", async (_label, now) => {
    await at(now);
    const { default: PetPage, generateMetadata } = await page();
    expect(await generateMetadata(params(String(pet.id)))).toMatchObject({ title: "Sunset survivor" });
    expect(detailsOf(await PetPage(params(String(pet.id)))).initial.pet).toEqual(pet);
  });

  it("past the sunset, an unknown id is still a 404 page (not 'unavailable')", async () => {
    await at(new Date("2031-01-01T00:00:00Z"));
    const { default: PetPage, generateMetadata } = await page();
    expect(await generateMetadata(params("987654321"))).toEqual({ title: "Animal not found" });
    await expect(PetPage(params("987654321"))).rejects.toMatchObject({ digest: expect.stringMatching(/404/) });
  });
});
