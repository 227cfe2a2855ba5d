import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { pageSql } from "@/lib/pets/queries/pages";
import type { Pet } from "@/lib/pets/schemas/pet";
import { call, expectApiError, expectJson, newKey, parseLink, seedPets } from "./helpers";

// GET /v1/pets?q= - name search: a substring, ignoring case and accents,
// LIKE's wildcards taken literally, combined with every other filter and
// with cursor paging; served by the trigram index on pets.search_name.

const NAMES = [
  "Biscuit",
  "Hibiscus",
  "BISON",
  "Zoë",
  "Zoe\u0301y", // a combining accent, as some keyboards send it
  "ZOE",
  "Chloé",
  "100% Good",
  "Percy",
  "Under_score",
  "Underscore",
  "Back\\slash",
  "Zoë's friend",
  "Ålfred",
  "Straße",
];

let key: string;
let seeded: Pet[];

beforeAll(async () => {
  ({ key } = await newKey(["pets:read"]));
  seeded = await seedPets(NAMES.map((name, i) => ({ name, categoryId: 1 + (i % 3), status: i % 2 ? "sold" : "available" })));
});

const search = (query: string) => call(GET, `/v1/pets?${query}`, { key });
const names = async (query: string) => (await expectJson<Pet[]>(await search(query))).map((p) => p.name);
const q = (text: string) => `q=${encodeURIComponent(text)}`;
const newestFirst = (list: string[]) => [...list].sort((a, b) => NAMES.indexOf(b) - NAMES.indexOf(a));

describe("GET /v1/pets?q=", () => {
  it.each([
    ["bis", ["Biscuit", "Hibiscus", "BISON"]],
    ["BIS", ["Biscuit", "Hibiscus", "BISON"]],
    ["cuit", ["Biscuit"]],
    ["zoe", ["Zoë", "Zoéy", "ZOE", "Zoë's friend"]],
    ["ZOË", ["Zoë", "Zoéy", "ZOE", "Zoë's friend"]],
    ["chloe", ["Chloé"]],
    ["alfred", ["Ålfred"]],
    ["strasse", ["Straße"]],
    ["e's fr", ["Zoë's friend"]],
    ["nobody", []],
  ])("q=%s finds %j (a substring, ignoring case and accents), newest first", async (text, expected) => {
    expect(await names(q(text))).toEqual(newestFirst(expected.map((n) => (n === "Zoéy" ? "Zoe\u0301y" : n))));
  });

  it.each([
    ["%", ["100% Good"]],
    ["_", ["Under_score"]],
    ["r_s", ["Under_score"]],
    ["\\", ["Back\\slash"]],
    ["0%", ["100% Good"]],
    ["％", ["100% Good"]], // full-width percent: unaccent folds it to %, still a literal
    ["u%e", []],
  ])("LIKE wildcards are literal: q=%s finds only %j", async (text, expected) => {
    expect(await names(q(text))).toEqual(newestFirst(expected));
  });

  it("trims q: ' bis ' is 'bis'", async () => {
    expect(await names(q("  bis  "))).toEqual(await names(q("bis")));
  });

  it("one or two characters work too (they cannot use trigrams, but the answer is the same)", async () => {
    expect(await names(q("z"))).toEqual(newestFirst(["Zoë", "Zoe\u0301y", "ZOE", "Zoë's friend"]));
    expect(await names(q("bi"))).toEqual(newestFirst(["Biscuit", "Hibiscus", "BISON"]));
  });

  it("combines with status, categoryId and id", async () => {
    const zoes = seeded.filter((p) => ["Zoë", "Zoe\u0301y", "ZOE", "Zoë's friend"].includes(p.name));
    const sold = zoes.filter((p) => p.status === "sold");
    expect(await names(`${q("zoe")}&status=sold`)).toEqual(newestFirst(sold.map((p) => p.name)));
    const inCategory = zoes.filter((p) => p.categoryId === 1);
    expect(await names(`${q("zoe")}&categoryId=1`)).toEqual(newestFirst(inCategory.map((p) => p.name)));
    const two = [zoes[0]!, seeded.find((p) => p.name === "Biscuit")!];
    expect(await names(`${q("zoe")}&id=${two.map((p) => p.id).join(",")}`)).toEqual([zoes[0]!.name]);
  });

  it("pages with cursors, forwards and back, keeping q in the links", async () => {
    const want = newestFirst(["Zoë", "Zoe\u0301y", "ZOE", "Zoë's friend"]);
    const first = await search(`${q("zoe")}&limit=3`);
    expect((await expectJson<Pet[]>(first)).map((p) => p.name)).toEqual(want.slice(0, 3));
    const next = parseLink(first.headers.get("link")).next!;
    expect(new URL(next).searchParams.get("q")).toBe("zoe");

    const second = await call(GET, next, { key });
    expect((await expectJson<Pet[]>(second)).map((p) => p.name)).toEqual(want.slice(3));
    const links = parseLink(second.headers.get("link"));
    expect(links.next).toBeUndefined();
    const back = await call(GET, links.prev!, { key });
    expect((await expectJson<Pet[]>(back)).map((p) => p.name)).toEqual(want.slice(0, 3));
    expect(parseLink(back.headers.get("link")).prev).toBeUndefined();
  });

  it.each([
    ["empty", "q="],
    ["blank", `q=${encodeURIComponent("   ")}`],
    ["101 characters", q("x".repeat(101))],
    ["a NUL character", "q=a%00b"],
    ["repeated", "q=a&q=b"],
  ])("%s → 400 invalid_query naming q", async (_label, query) => {
    const body = await expectApiError(await search(query), 400, "invalid_query");
    expect(body.details?.map((d) => d.field)).toContain("q");
  });

  it("100 characters (counted as characters, not UTF-16 units) are accepted", async () => {
    expect(await names(q("x".repeat(100)))).toEqual([]);
    expect(await names(q("🐶".repeat(100)))).toEqual([]);
  });
});

describe("the search is served by the trigram index", () => {
  it("EXPLAIN of the app's own search query on 30,000 animals uses pets_search_name_trgm_idx", async () => {
    // In three statements: names of random letters are the trigram index's worst case, and it merges new
    // entries 64 kB at a time (migration 20261202100000), so one statement of all 30,000 could outlast the
    // statement timeout on a busy machine.
    for (const from of [1, 10_001, 20_001]) {
      await db().$executeRaw`
        INSERT INTO pets (name, organization_id, category_id, status)
        SELECT 'Filler ' || md5(i::text), 1, 1 + i % 6, (ARRAY['available', 'pending', 'sold']::"PetStatus"[])[1 + i % 3]
        FROM generate_series(${from}::int, ${from + 9_999}::int) AS i`;
    }
    await seedPets([{ name: "Quixotic Wanda" }, { name: "Wanda Quixote" }]);
    // As autovacuum does after a bulk load: statistics, and the GIN index's
    // pending list merged (rows fresh in that list cost a planner more to
    // reach through the index than a scan of such a small table).
    await db().$executeRawUnsafe("VACUUM ANALYZE pets");

    const sql = pageSql({ search: "quixot", take: 21 });
    const [row] = await db().$queryRaw<{ "QUERY PLAN": unknown }[]>(Prisma.sql`EXPLAIN (FORMAT JSON) ${sql}`);
    expect(JSON.stringify(row?.["QUERY PLAN"])).toContain('"Index Name":"pets_search_name_trgm_idx"');

    // And the answer is right at that size.
    expect(await names(q("QUIXOT"))).toEqual(["Wanda Quixote", "Quixotic Wanda"]);
  });
});
