import { beforeAll, describe, expect, it } from "vitest";
import { GET as listEventsRoute } from "@/app/v1/events/route";
import { GET as historyRoute } from "@/app/v1/pets/[petId]/history/route";
import { PATCH } from "@/app/v1/pets/[petId]/route";
import { GET as listPetsRoute, POST as createPetRoute } from "@/app/v1/pets/route";
import type { HistoryEntry } from "@/lib/pets/schemas/history";
import { describeChanges } from "@/lib/pets/history-format";
import { db } from "@/lib/db";
import { isoDay } from "@/lib/pets/age";
import type { Pet } from "@/lib/pets/schemas/pet";
import {
  call,
  expectApiError,
  expectJson,
  FIRST_ORG,
  IN_THE_SHELTER,
  LISTING_UNKNOWN,
  newKey,
  newOrganization,
  staffSession,
  type StaffSession,
} from "./helpers";

// The profile in the listing sites' words (issue 34), and listOnOtherSites
// (issue 35): optional on create and PATCH, on every Pet, validated field
// by field, merged as PATCH merges, carried by the audit trail and the
// change feed; externalId unique within an organisation, by the database.

let key: string;
let staff: StaffSession;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "listing profiler"));
  staff = await staffSession();
});

const create = (json: unknown, as = key) => call(createPetRoute, "/v1/pets", { method: "POST", key: as, json });
const patch = (pet: Pick<Pet, "id" | "version">, json: unknown, as = key) =>
  call(PATCH, `/v1/pets/${pet.id}`, { method: "PATCH", key: as, json, params: { petId: String(pet.id) }, headers: { "If-Match": `"${pet.version}"` } });
const list = (query: string) => call(listPetsRoute, `/v1/pets?${query}`, { key });
const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}`;
const yesterday = () => isoDay(new Date(Date.now() - 86_400_000));

/** Every listing-site field, as a shelter's software would send it. */
const FULL = () => ({
  name: "Maple",
  categoryId: 1,
  externalId: unique("A"),
  secondaryBreed: "Border collie",
  mixedBreed: true,
  colors: ["Black", "White"],
  coatLength: "medium",
  spayedNeutered: true,
  houseTrained: false,
  declawed: null,
  shotsCurrent: true,
  specialNeeds: true,
  specialNeedsNotes: "Needs a daily thyroid pill.",
  adoptionFee: { amountCents: 15000, currency: "USD", waived: false },
  intakeDate: yesterday(),
  videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  tags: ["Playful", "Loves car rides"],
  listOnOtherSites: false,
});

describe("a client that sends none of the new fields", () => {
  it("creates, reads and changes an animal exactly as before; answers only gain the new fields, unknown (and listed on other sites)", async () => {
    const res = await create({ name: "Old client", categoryId: 2, status: "pending" });
    const pet = await expectJson<Pet>(res, 201);
    expect(pet).toEqual({
      id: expect.any(Number),
      name: "Old client",
      categoryId: 2,
      organizationId: FIRST_ORG,
      status: "pending",
      version: 1,
      sex: "unknown",
      size: null,
      birthDate: null,
      ageGroup: null,
      breed: null,
      description: null,
      goodWith: { children: null, dogs: null, cats: null },
      photos: [],
      ...LISTING_UNKNOWN,
      ...IN_THE_SHELTER,
    });
    expect(res.headers.get("etag")).toBe('"1"');
    const sold = await expectJson<Pet>(await patch(pet, { status: "sold" }));
    expect(sold).toEqual({ ...pet, status: "sold", version: 2 });
    const [listed] = await expectJson<Pet[]>(await list(`id=${pet.id}`));
    expect(listed).toEqual(sold);
  });
});

describe("on create", () => {
  it("stores every field as sent and returns it on every read", async () => {
    const full = FULL();
    const created = await expectJson<Pet>(await create(full), 201);
    expect(created).toMatchObject(full);
    const [listed] = await expectJson<Pet[]>(await list(`id=${created.id}`));
    expect(listed).toEqual(created);
  });

  it("normalises as documented: trims, capitalises the currency, defaults the fee's currency and waived, drops repeated colours and tags ignoring case", async () => {
    const externalId = unique("B");
    const pet = await expectJson<Pet>(
      await create({
        name: "Tidy",
        categoryId: 1,
        externalId: `  ${externalId}\t`,
        colors: [" Black ", "black", "Tan"],
        tags: ["  Loves   car rides ", "playful", "Playful", "PLAYFUL", "Calm"],
        adoptionFee: { amountCents: 0, waived: true },
        secondaryBreed: "  Poodle ",
        specialNeedsNotes: " Deaf; learns hand signals. ",
      }),
      201,
    );
    expect(pet).toMatchObject({
      externalId,
      colors: ["Black", "Tan"],
      tags: ["Loves car rides", "playful", "Calm"],
      adoptionFee: { amountCents: 0, currency: "USD", waived: true },
      secondaryBreed: "Poodle",
      specialNeedsNotes: "Deaf; learns hand signals.",
    });
    const eur = await expectJson<Pet>(await create({ name: "Euro", categoryId: 1, adoptionFee: { amountCents: 9000, currency: "eur" } }), 201);
    expect(eur.adoptionFee).toEqual({ amountCents: 9000, currency: "EUR", waived: false });
  });

  it.each([
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
    "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://youtu.be/dQw4w9WgXcQ",
    "https://www.youtube.com/shorts/dQw4w9WgXcQ",
    "https://www.youtube.com/embed/dQw4w9WgXcQ",
    "https://vimeo.com/76979871",
    "https://vimeo.com/76979871/8a3c9e5d1f",
    "https://player.vimeo.com/video/76979871",
  ])("accepts the video %s", async (videoUrl) => {
    expect((await expectJson<Pet>(await create({ name: "Star", categoryId: 1, videoUrl }), 201)).videoUrl).toBe(videoUrl);
  });

  it.each([
    ["a blank externalId", { externalId: "  " }, "externalId"],
    ["an externalId of 65 characters", { externalId: "x".repeat(65) }, "externalId"],
    ["an externalId with a comma", { externalId: "A1,A2" }, "externalId"],
    ["an externalId with a control character", { externalId: "A1\n2" }, "externalId"],
    ["an externalId that is a number", { externalId: 123 }, "externalId"],
    ["a blank secondaryBreed", { secondaryBreed: " " }, "secondaryBreed"],
    ["a secondaryBreed of 101 characters", { secondaryBreed: "x".repeat(101) }, "secondaryBreed"],
    ["mixedBreed as a string", { mixedBreed: "yes" }, "mixedBreed"],
    ["four colours", { colors: ["Black", "White", "Tan", "Grey"] }, "colors"],
    ["a blank colour", { colors: ["Black", " "] }, "colors.1"],
    ["a colour of 41 characters", { colors: ["x".repeat(41)] }, "colors.0"],
    ["a colour with a comma", { colors: ["Black, White"] }, "colors.0"],
    ["colours as a string", { colors: "Black" }, "colors"],
    ["a colour that is a number", { colors: [1] }, "colors.0"],
    ["an unknown coat length", { coatLength: "fluffy" }, "coatLength"],
    ["spayedNeutered as 1", { spayedNeutered: 1 }, "spayedNeutered"],
    ["houseTrained as a string", { houseTrained: "true" }, "houseTrained"],
    ["declawed as a string", { declawed: "no" }, "declawed"],
    ["shotsCurrent as 0", { shotsCurrent: 0 }, "shotsCurrent"],
    ["specialNeeds as an object", { specialNeeds: {} }, "specialNeeds"],
    ["specialNeedsNotes of 501 characters", { specialNeedsNotes: "é".repeat(501) }, "specialNeedsNotes"],
    ["blank specialNeedsNotes", { specialNeedsNotes: "" }, "specialNeedsNotes"],
    ["a fee without an amount", { adoptionFee: { currency: "USD" } }, "adoptionFee.amountCents"],
    ["a negative fee", { adoptionFee: { amountCents: -1 } }, "adoptionFee.amountCents"],
    ["a fee in fractions of a cent", { adoptionFee: { amountCents: 150.5 } }, "adoptionFee.amountCents"],
    ["a fee as dollars in a string", { adoptionFee: { amountCents: "150.00" } }, "adoptionFee.amountCents"],
    ["a fee over the bound", { adoptionFee: { amountCents: 10_000_001 } }, "adoptionFee.amountCents"],
    ["a currency that is not ISO 4217", { adoptionFee: { amountCents: 100, currency: "XYZ" } }, "adoptionFee.currency"],
    ["a currency of 2 letters", { adoptionFee: { amountCents: 100, currency: "US" } }, "adoptionFee.currency"],
    ["waived as a string", { adoptionFee: { amountCents: 100, waived: "yes" } }, "adoptionFee.waived"],
    ["a fee with an unknown key", { adoptionFee: { amountCents: 100, price: 1 } }, "adoptionFee.price"],
    ["a fee that is a number", { adoptionFee: 150 }, "adoptionFee"],
    ["an intake date in the future", { intakeDate: "2999-01-01" }, "intakeDate"],
    ["an intake date that does not exist", { intakeDate: "2025-02-29" }, "intakeDate"],
    ["an intake date in another format", { intakeDate: "02/10/2026" }, "intakeDate"],
    ["a video on another site", { videoUrl: "https://www.dailymotion.com/video/x7tgad0" }, "videoUrl"],
    ["a video over http", { videoUrl: "http://www.youtube.com/watch?v=dQw4w9WgXcQ" }, "videoUrl"],
    ["a YouTube address without a video", { videoUrl: "https://www.youtube.com/@shelter" }, "videoUrl"],
    ["a YouTube id of the wrong length", { videoUrl: "https://youtu.be/dQw4w9" }, "videoUrl"],
    ["a Vimeo address that is not a video", { videoUrl: "https://vimeo.com/channels/staffpicks" }, "videoUrl"],
    ["a look-alike host", { videoUrl: "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ" }, "videoUrl"],
    ["credentials in the address", { videoUrl: "https://user:pw@youtube.com/watch?v=dQw4w9WgXcQ" }, "videoUrl"],
    ["not an address", { videoUrl: "a video of Maple" }, "videoUrl"],
    ["eleven tags", { tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, "tags"],
    ["a tag of 31 characters", { tags: ["x".repeat(31)] }, "tags.0"],
    ["a blank tag", { tags: ["calm", ""] }, "tags.1"],
    ["a tag with a comma", { tags: ["calm, quiet"] }, "tags.0"],
    ["listOnOtherSites null", { listOnOtherSites: null }, "listOnOtherSites"],
    ["listOnOtherSites as a string", { listOnOtherSites: "false" }, "listOnOtherSites"],
  ])("%s is 400 invalid_body naming the field", async (_name, extra, field) => {
    const body = await expectApiError(await create({ name: "Bad", categoryId: 1, ...extra }), 400, "invalid_body");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });

  it("says what a video address must be", async () => {
    const body = await expectApiError(await create({ name: "Bad", categoryId: 1, videoUrl: "https://www.tiktok.com/@shelter/video/1" }), 400, "invalid_body");
    expect(body.details).toEqual([{ field: "videoUrl", issue: expect.stringMatching(/^must be an https address of a YouTube or Vimeo video/) }]);
  });

  it("names a refused tag in the message", async () => {
    const body = await expectApiError(await create({ name: "Bad", categoryId: 1, tags: ["calm", "an extraordinarily long tag word"] }), 400, "invalid_body");
    expect(body.details).toEqual([{ field: "tags.1", issue: "each tag must be at most 30 characters (“an extraordinarily l…”)" }]);
  });
});

describe("on PATCH", () => {
  it("changes them, merges the fee, replaces lists, and null makes a field unknown", async () => {
    const pet = await expectJson<Pet>(await create(FULL()), 201);
    const v2 = await expectJson<Pet>(await patch(pet, { adoptionFee: { waived: true }, colors: ["Brindle"], houseTrained: true, listOnOtherSites: true }));
    expect(v2).toMatchObject({
      version: 2,
      adoptionFee: { amountCents: 15000, currency: "USD", waived: true },
      colors: ["Brindle"],
      houseTrained: true,
      listOnOtherSites: true,
    });
    const v3 = await expectJson<Pet>(await patch(v2, { adoptionFee: { amountCents: 7500, currency: "cad" } }));
    expect(v3.adoptionFee).toEqual({ amountCents: 7500, currency: "CAD", waived: true });
    const v4 = await expectJson<Pet>(
      await patch(v3, {
        adoptionFee: null,
        colors: null,
        tags: [],
        externalId: null,
        videoUrl: null,
        intakeDate: null,
        specialNeeds: null,
        specialNeedsNotes: null,
        coatLength: null,
      }),
    );
    expect(v4).toMatchObject({
      version: 4,
      adoptionFee: null,
      colors: [],
      tags: [],
      externalId: null,
      videoUrl: null,
      intakeDate: null,
      specialNeeds: null,
      specialNeedsNotes: null,
      coatLength: null,
    });
    // An animal without a fee gets one with an amount (USD, not waived, unless said).
    const v5 = await expectJson<Pet>(await patch(v4, { adoptionFee: { amountCents: 5000 } }));
    expect(v5.adoptionFee).toEqual({ amountCents: 5000, currency: "USD", waived: false });
  });

  it("a fee for an animal that has none needs an amount", async () => {
    const pet = await expectJson<Pet>(await create({ name: "Free?", categoryId: 1 }), 201);
    const body = await expectApiError(await patch(pet, { adoptionFee: { waived: true } }), 400, "invalid_body");
    expect(body.details).toEqual([{ field: "adoptionFee.amountCents", issue: "is required (the animal has no fee yet)" }]);
    expect((await db().pet.findUniqueOrThrow({ where: { id: BigInt(pet.id) }, select: { version: true } })).version).toBe(1);
  });

  it("a patch that sets the values already there (a list in another case, a fee part as it is) changes nothing", async () => {
    const full = FULL();
    const pet = await expectJson<Pet>(await create(full), 201);
    const same = await expectJson<Pet>(
      await patch(pet, {
        tags: ["Playful", "playful", " Loves car rides"],
        adoptionFee: { waived: false },
        houseTrained: false,
        externalId: full.externalId,
        listOnOtherSites: false,
      }),
    );
    expect(same.version).toBe(1);
    expect(await db().petAudit.count({ where: { petId: BigInt(pet.id) } })).toBe(1);
  });

  it.each([
    ["listOnOtherSites: null", { listOnOtherSites: null }, "listOnOtherSites"],
    ["a fee with an unknown key", { adoptionFee: { cents: 1 } }, "adoptionFee.cents"],
    ["a video elsewhere", { videoUrl: "https://example.com/maple.mp4" }, "videoUrl"],
    ["a coat length in capitals", { coatLength: "Short" }, "coatLength"],
    ["a tag list as a string", { tags: "calm" }, "tags"],
    ["an intake date in the future", { intakeDate: "2999-12-31" }, "intakeDate"],
    ["a misspelt field", { houseTrainned: true }, "houseTrainned"],
  ])("%s is 400 invalid_body naming the field", async (_name, json, field) => {
    const pet = await expectJson<Pet>(await create({ name: "Strict", categoryId: 1 }), 201);
    const body = await expectApiError(await patch(pet, json), 400, "invalid_body");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });
});

describe("externalId is unique within an organisation", () => {
  it("a second animal with it is 409 external_id_taken naming the field and the animal; nothing is written", async () => {
    const externalId = unique("D");
    const first = await expectJson<Pet>(await create({ name: "First", categoryId: 1, externalId }), 201);
    const events = await db().event.count();
    const body = await expectApiError(await create({ name: "Second", categoryId: 1, externalId: ` ${externalId} ` }), 409, "external_id_taken");
    expect(body.details).toEqual([{ field: "externalId", issue: `is already the id of animal ${first.id} of this organisation` }]);
    expect(body.message).toContain(externalId);
    expect(await db().pet.count({ where: { name: "Second" } })).toBe(0);
    expect(await db().event.count()).toBe(events);
  });

  it("is compared exactly: another case is another id", async () => {
    const externalId = unique("case").toUpperCase();
    await expectJson<Pet>(await create({ name: "Upper", categoryId: 1, externalId }), 201);
    await expectJson<Pet>(await create({ name: "Lower", categoryId: 1, externalId: externalId.toLowerCase() }), 201);
  });

  it("PATCH to an id another animal holds is 409 and changes nothing; keeping one's own, or giving it up for another to take, works", async () => {
    const [a, b] = [unique("E"), unique("F")];
    const one = await expectJson<Pet>(await create({ name: "One", categoryId: 1, externalId: a }), 201);
    const two = await expectJson<Pet>(await create({ name: "Two", categoryId: 1, externalId: b }), 201);
    const body = await expectApiError(await patch(two, { externalId: a, name: "Two renamed" }), 409, "external_id_taken");
    expect(body.details).toEqual([{ field: "externalId", issue: `is already the id of animal ${one.id} of this organisation` }]);
    expect(await db().pet.findUniqueOrThrow({ where: { id: BigInt(two.id) }, select: { name: true, externalId: true, version: true } })).toEqual({
      name: "Two",
      externalId: b,
      version: 1,
    });
    expect((await expectJson<Pet>(await patch(one, { externalId: a }))).version).toBe(1);
    const freed = await expectJson<Pet>(await patch(one, { externalId: null }));
    expect((await expectJson<Pet>(await patch(two, { externalId: a }))).externalId).toBe(a);
    expect(freed.externalId).toBeNull();
  });

  it("holds under concurrency: of twelve creates with one new id at the same moment, exactly one is made", async () => {
    const externalId = unique("G");
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => create({ name: `Racer ${i}`, categoryId: 1, externalId })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) await expectApiError(r, 409, "external_id_taken");
    expect(await db().pet.count({ where: { externalId } })).toBe(1);
  });

  it("a duplicate among concurrent creates fails alone: the others (batched with it) are made", async () => {
    const taken = unique("H");
    await expectJson<Pet>(await create({ name: "Holder", categoryId: 1, externalId: taken }), 201);
    const others = Array.from({ length: 6 }, (_, i) => unique(`I${i}`));
    const results = await Promise.all([
      create({ name: "Duplicate", categoryId: 1, externalId: taken }),
      ...others.map((externalId, i) => create({ name: `Batch ${i}`, categoryId: 1, externalId })),
    ]);
    await expectApiError(results[0]!, 409, "external_id_taken");
    for (const r of results.slice(1)) expect(r.status).toBe(201);
    expect(await db().pet.count({ where: { externalId: { in: others } } })).toBe(6);
  });

  it("two PATCHes racing for one free id: one wins, the other is 409", async () => {
    const externalId = unique("J");
    const [x, y] = await Promise.all(
      [create({ name: "X", categoryId: 1 }), create({ name: "Y", categoryId: 1 })].map(async (r) => expectJson<Pet>(await r, 201)),
    );
    const results = await Promise.all([patch(x!, { externalId }), patch(y!, { externalId })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    await expectApiError(
      results.find((r) => r.status === 409)!,
      409,
      "external_id_taken",
    );
  });

  it("two organisations may use the same id, and the list by externalId finds both (or one shelter's with organizationId)", async () => {
    const externalId = unique("K");
    const org = await newOrganization();
    const { key: theirs } = await newKey(["pets:read", "pets:write"], "their shelter", { plan: "pro" }, org);
    const ours = await expectJson<Pet>(await create({ name: "Ours", categoryId: 1, externalId }), 201);
    const their = await expectJson<Pet>(await create({ name: "Theirs", categoryId: 1, externalId }, theirs), 201);
    expect(their.organizationId).toBe(org);
    expect((await expectJson<Pet[]>(await list(`externalId=${externalId}`))).map((p) => p.id)).toEqual([their.id, ours.id]);
    expect((await expectJson<Pet[]>(await list(`externalId=${externalId}&organizationId=${org}`))).map((p) => p.id)).toEqual([their.id]);
    // Their staff cannot give one of ours the id either: the 409 is theirs alone.
    await expectApiError(await patch(their, { externalId: unique("L") }, key), 403, "forbidden");
  });
});

describe("GET /v1/pets?externalId=", () => {
  it("lists the animals with those ids, newest first; unknown ids are simply absent; duplicates and spaces count once", async () => {
    const ids = [unique("M"), unique("N"), unique("O")];
    const pets = [];
    for (const externalId of ids) pets.push(await expectJson<Pet>(await create({ name: externalId, categoryId: 1, externalId }), 201));
    const got = await expectJson<Pet[]>(await list(`externalId=${encodeURIComponent(`${ids[0]}, ${ids[2]},nobody,${ids[0]}`)}`));
    expect(got.map((p) => p.id)).toEqual([pets[2]!.id, pets[0]!.id]);
    expect(await expectJson<Pet[]>(await list(`externalId=${unique("nobody")}`))).toEqual([]);
  });

  it("pages through many with cursors, and combines with the other filters", async () => {
    const ids = Array.from({ length: 9 }, (_, i) => unique(`P${i}`));
    const pets = [];
    for (const [i, externalId] of ids.entries())
      pets.push(await expectJson<Pet>(await create({ name: `Paged ${i}`, categoryId: 1, externalId, houseTrained: i % 2 === 0 }), 201));
    const first = await list(`externalId=${ids.join(",")}&limit=4`);
    expect((await expectJson<Pet[]>(first)).map((p) => p.name)).toEqual(["Paged 8", "Paged 7", "Paged 6", "Paged 5"]);
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get("link") ?? "")![1]!;
    const second = await call(listPetsRoute, next, { key });
    expect((await expectJson<Pet[]>(second)).map((p) => p.name)).toEqual(["Paged 4", "Paged 3", "Paged 2", "Paged 1"]);
    const prev = /<([^>]+)>;\s*rel="prev"/.exec(second.headers.get("link") ?? "")![1]!;
    expect((await expectJson<Pet[]>(await call(listPetsRoute, prev, { key }))).map((p) => p.name)).toEqual(["Paged 8", "Paged 7", "Paged 6", "Paged 5"]);
    expect((await expectJson<Pet[]>(await list(`externalId=${ids.join(",")}&houseTrained=true&q=paged`))).map((p) => p.name)).toEqual([
      "Paged 8",
      "Paged 6",
      "Paged 4",
      "Paged 2",
      "Paged 0",
    ]);
  });

  it.each([
    ["an empty list", "externalId="],
    ["a blank item", "externalId=A1,,A2"],
    ["an id of 65 characters", `externalId=${"x".repeat(65)}`],
    ["101 ids", `externalId=${Array.from({ length: 101 }, (_, i) => `X${i}`).join(",")}`],
    ["a repeated parameter", "externalId=A1&externalId=A2"],
  ])("%s is 400 invalid_query", async (_name, query) => {
    const body = await expectApiError(await list(query), 400, "invalid_query");
    expect(body.details?.map((d) => d.field)).toContain("externalId");
  });

  it("takes 100 ids", async () => {
    expect(await expectJson<Pet[]>(await list(`externalId=${Array.from({ length: 100 }, (_, i) => unique(`Q${i}`)).join(",")}`))).toEqual([]);
  });
});

describe("the audit trail and the change feed", () => {
  it("carry every field in pet.created, the changed fields' old values in pet.updated, and the history says them in words", async () => {
    const full = FULL();
    const pet = await expectJson<Pet>(await create(full), 201);
    const changed = await expectJson<Pet>(
      await call(PATCH, `/v1/pets/${pet.id}`, {
        method: "PATCH",
        json: { adoptionFee: { waived: true }, tags: ["Calm"], houseTrained: true, listOnOtherSites: true },
        params: { petId: String(pet.id) },
        headers: staff.headers,
      }),
    );
    const events = await expectJson<{ type: string; data: { pet: Pet; previous?: Partial<Pet> } }[]>(
      await call(listEventsRoute, "/v1/events?limit=100", { key }),
    );
    const mine = events.filter((e) => e.data.pet.id === pet.id);
    expect(mine.map((e) => e.type)).toEqual(["pet.created", "pet.updated"]);
    expect(mine[0]!.data.pet).toEqual(pet);
    expect(mine[1]!.data.pet).toEqual(changed);
    expect(mine[1]!.data.previous).toEqual({
      adoptionFee: { amountCents: 15000, currency: "USD", waived: false },
      tags: ["Playful", "Loves car rides"],
      houseTrained: false,
      listOnOtherSites: false,
    });

    const history = await expectJson<HistoryEntry[]>(
      await call(historyRoute, `/v1/pets/${pet.id}/history`, { params: { petId: String(pet.id) }, headers: staff.headers }),
    );
    expect(history.map((e) => e.after)).toEqual([changed, pet]);
    expect(describeChanges(history[0]!)).toBe(
      'houseTrained: no → yes, adoptionFee: $150 → $150 (waived), tags: "Playful", "Loves car rides" → "Calm", listOnOtherSites: no → yes',
    );
    expect(describeChanges(history[1]!)).toContain("adoptionFee: $150, intakeDate:");
    expect(describeChanges(history[1]!)).toContain('colors: "Black", "White", coatLength: "medium", spayedNeutered: yes, houseTrained: no');
  });

  it("records written before these fields existed show them as unknown (listed on other sites)", async () => {
    const pet = await expectJson<Pet>(await create({ name: "Old record", categoryId: 1 }), 201);
    // The record as an older version wrote it: without the listing-site fields.
    await db().$executeRaw`ALTER TABLE pet_audit DISABLE TRIGGER USER`;
    try {
      await db()
        .$executeRaw`UPDATE pet_audit SET after = after - ARRAY['externalId','colors','tags','listOnOtherSites','adoptionFee','videoUrl'] WHERE pet_id = ${BigInt(pet.id)}`;
    } finally {
      await db().$executeRaw`ALTER TABLE pet_audit ENABLE TRIGGER USER`;
    }
    const [entry] = await expectJson<HistoryEntry[]>(
      await call(historyRoute, `/v1/pets/${pet.id}/history`, { params: { petId: String(pet.id) }, headers: staff.headers }),
    );
    expect(entry!.after).toEqual(pet);
  });
});
