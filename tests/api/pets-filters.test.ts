import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/pets/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { AGE_GROUPS, ageGroupOf, isoDay, yearsBefore, type AgeGroup } from "@/lib/pets/age";
import { refreshAgeGroups } from "@/lib/pets/queries/age-groups";
import { GOOD_WITH, PET_SEXES, PET_SIZES, type GoodWithKind } from "@/lib/pets/profile";
import { type Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, newKey, parseLink, seedPets, walkPetPages, type PetSeed } from "./helpers";

// The profile filters of GET /v1/pets: sex (one), size and age (any of),
// goodWith (all of). Each is checked against the same filter applied in
// TypeScript to a varied data set, alone, combined with the others and with
// status, and walked page by page through its cursors.

let key: string;
let all: Pet[]; // newest first
const TODAY = isoDay(new Date());

/** A birth date making an animal `years` old today, plus `days`. */
const bornYearsAgo = (years: number, days = 0) => isoDay(new Date(Date.parse(`${yearsBefore(TODAY, years)}T00:00:00Z`) - days * 86_400_000));

beforeAll(async () => {
  ({ key } = await newKey(["pets:read"]));
  const ages = [null, 0.2, 0.9, 1.5, 2.9, 4, 7.5, 9, 15];
  const seeds: PetSeed[] = Array.from({ length: 90 }, (_, i) => {
    const age = ages[i % ages.length]!;
    return {
      name: `Profile ${i}`,
      categoryId: 1 + (i % 4),
      status: (["available", "pending", "sold"] as const)[i % 3],
      sex: PET_SEXES[i % 3],
      size: i % 5 === 4 ? null : PET_SIZES[i % 4],
      birthDate: age === null ? null : bornYearsAgo(Math.floor(age), Math.round((age % 1) * 365)),
      goodWith: { children: [true, false, null][i % 3], dogs: [true, null][i % 2], cats: [true, false, null, true][i % 4] },
    };
  });
  all = (await seedPets(seeds)).sort((a, b) => b.id - a.id);
});

afterEach(() => setClock());

const list = (query: string) => call(GET, `/v1/pets?${query}`, { key });

/** Every page of a filtered list. */
const walk = (query: string, limit = 7) => walkPetPages(key, query, limit);

const ids = (pets: Pet[]) => pets.map((p) => p.id);
const goodWithAll = (p: Pet, kinds: GoodWithKind[]) => kinds.every((k) => p.goodWith[k] === true);

describe("each filter alone, every page", () => {
  it.each(PET_SEXES)("sex=%s", async (sex) => {
    expect(ids(await walk(`sex=${sex}`))).toEqual(ids(all.filter((p) => p.sex === sex)));
  });

  it.each([["small"], ["small", "medium"], ["large", "xlarge"], [...PET_SIZES]])("size=%s", async (...sizes) => {
    const got = await walk(`size=${sizes.join(",")}`);
    expect(ids(got)).toEqual(ids(all.filter((p) => p.size !== null && sizes.includes(p.size))));
  });

  it.each([["baby"], ["baby", "young"], ["adult"], ["senior"], [...AGE_GROUPS]] as AgeGroup[][])("age=%s", async (...groups) => {
    const got = await walk(`age=${groups.join(",")}`);
    expect(ids(got)).toEqual(ids(all.filter((p) => p.ageGroup !== null && groups.includes(p.ageGroup))));
    expect(got.length).toBeGreaterThan(0);
  });

  it.each([["children"], ["children", "cats"], ["dogs", "cats"], [...GOOD_WITH]] as GoodWithKind[][])("goodWith=%s (all of them)", async (...kinds) => {
    expect(ids(await walk(`goodWith=${kinds.join(",")}`))).toEqual(ids(all.filter((p) => goodWithAll(p, kinds))));
  });
});

describe("combined", () => {
  it("with each other and with status, category, paging backwards too", async () => {
    const query = "status=available&sex=female&size=small,medium,large&age=young,adult,senior&goodWith=dogs";
    const want = all.filter(
      (p) =>
        p.status === "available" &&
        p.sex === "female" &&
        ["small", "medium", "large"].includes(p.size ?? "") &&
        ["young", "adult", "senior"].includes(p.ageGroup ?? "") &&
        p.goodWith.dogs === true,
    );
    expect(ids(await walk(query, 2))).toEqual(ids(want));

    // Back from the last page with rel="prev".
    const pages: Pet[][] = [];
    let res = await list(`${query}&limit=2`);
    let next = parseLink(res.headers.get("link")).next;
    pages.push(await expectJson<Pet[]>(res));
    while (next) {
      res = await call(GET, next, { key });
      pages.push(await expectJson<Pet[]>(res));
      next = parseLink(res.headers.get("link")).next;
    }
    let prev = parseLink(res.headers.get("link")).prev;
    const back: Pet[][] = [];
    while (prev) {
      res = await call(GET, prev, { key });
      back.unshift(await expectJson<Pet[]>(res));
      prev = parseLink(res.headers.get("link")).prev;
    }
    expect(back.flat().map((p) => p.id)).toEqual(
      pages
        .slice(0, -1)
        .flat()
        .map((p) => p.id),
    );
  });

  it("status=available&age=baby", async () => {
    expect(ids(await walk("status=available&age=baby"))).toEqual(ids(all.filter((p) => p.status === "available" && p.ageGroup === "baby")));
  });
});

describe("bad values are 400 invalid_query naming the parameter", () => {
  it.each([
    ["sex=cat", "sex"],
    ["sex=female,male", "sex"],
    ["size=huge", "size"],
    ["size=small,", "size"],
    ["size=", "size"],
    ["age=puppy", "age"],
    ["age=baby,Young", "age"],
    ["goodWith=kids", "goodWith"],
    ["goodWith=children&goodWith=cats", "goodWith"],
  ])("%s", async (query, field) => {
    const body = await expectApiError(await list(query), 400, "invalid_query");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });
});

describe("age groups follow the calendar", () => {
  it("an animal moves from baby to young on its first birthday, and the filter agrees with ageGroup", async () => {
    // One year old tomorrow.
    const birth = bornYearsAgo(1, -1);
    const [pet] = await seedPets([{ name: "Birthday", birthDate: birth }]);
    const groupOn = async (day: string) => {
      setClock(new Date(`${day}T12:00:00Z`));
      const [shown] = await expectJson<Pet[]>(await list(`id=${pet!.id}`));
      const inBaby = (await expectJson<Pet[]>(await list(`id=${pet!.id}&age=baby`))).length === 1;
      const inYoung = (await expectJson<Pet[]>(await list(`id=${pet!.id}&age=young`))).length === 1;
      return { shown: shown!.ageGroup, inBaby, inYoung };
    };
    const tomorrow = isoDay(new Date(Date.parse(`${TODAY}T00:00:00Z`) + 86_400_000));
    expect(await groupOn(TODAY)).toEqual({ shown: "baby", inBaby: true, inYoung: false });
    expect(await groupOn(tomorrow)).toEqual({ shown: "young", inBaby: false, inYoung: true });
    // And back: a clock set back in time sees the baby again.
    expect(await groupOn(TODAY)).toEqual({ shown: "baby", inBaby: true, inYoung: false });
  });

  it("is exact even when the stored groups are years out of date (the daily refresh has not run)", async () => {
    // Two years from now, without a refresh: every stored group is stale.
    const later = new Date(Date.now() + 2 * 365 * 86_400_000);
    setClock(later);
    const day = isoDay(later);
    const everyone = await walk("");
    for (const group of AGE_GROUPS) {
      const got = await walk(`age=${group}`);
      const want = everyone.filter((p) => ageGroupOf(p.birthDate, day) === group);
      // Only animals whose birthday crossed a boundary within the re-checked
      // window are found beyond their stored group: the window spans the
      // days since the last refresh, so nothing is lost.
      expect(ids(got), group).toEqual(ids(want));
    }
  });

  it("the refresh moves stored groups on, and says how many changed", async () => {
    const [pet] = await seedPets([{ name: "Ages", birthDate: bornYearsAgo(0, 360) }]);
    const stored = async () => (await db().pet.findUniqueOrThrow({ where: { id: BigInt(pet!.id) }, select: { ageGroup: true } })).ageGroup;
    expect(await stored()).toBe("baby");
    const changed = await refreshAgeGroups(isoDay(new Date(Date.now() + 10 * 86_400_000)));
    expect(changed).toBeGreaterThanOrEqual(1);
    expect(await stored()).toBe("young");
  });
});
