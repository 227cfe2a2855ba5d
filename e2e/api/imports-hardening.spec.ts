import { expect, test, type APIRequestContext } from "@playwright/test";
import { bearer, cli, createKey, expectApiError } from "../helpers";
import { uniqueName } from "../ui/staff-helpers";

// Issue 40 over real HTTP, against the production server (which runs the job
// worker in the same processes): one organisation's file cannot take the
// service down with it. A header of a million names is refused at once, and
// the server goes on answering; a large report does not make the list of
// imports heavy (its bytes measured), and is read a page at a time.

const PETFINDER_HEADER =
  "ID,Internal,AnimalName,PrimaryBreed,SecondaryBreed,Sex,Size,Age,Desc,Type,Status,Shots,Altered,NoDogs,NoCats,NoKids,Housetrained,Declawed,specialNeeds,Mix,photo1,photo2,photo3,photo4,photo5,photo6,arrival_date,birth_date,primaryColor,secondaryColor,tertiaryColor,coat_length,adoption_fee,display_adoption_fee,adoption_fee_waived,special_needs_notes,no_other,no_other_note,tags";

/** A shelter of its own and a key of it: its imports are its own, one at a time. */
function shelterKey(): string {
  const created = cli("orgs", "create", "--name", uniqueName("Import Hardening"), "--city", "Juneau", "--region", "AK", "--postcode", "99801", "--json");
  expect(created.status, created.stderr).toBe(0);
  const { slug } = JSON.parse(created.stdout) as { slug: string };
  return createKey("import hardening", "--org", slug, "--plan", "enterprise", "--per-minute", "100000", "--per-day", "1000000");
}

type Finished = { status: string; counts: Record<string, number>; issues: number };

async function waitForImport(request: APIRequestContext, key: string, id: number): Promise<Finished> {
  let found: Finished | undefined;
  // Until the test's own timeout (toPass's default): the large files take minutes.
  await expect(async () => {
    const res = await request.get(`/v1/imports/${id}`, { headers: bearer(key) });
    expect(res.status()).toBe(200);
    found = await res.json();
    expect(found!.status, `import ${id} to be done or failed`).toMatch(/^(done|failed)$/);
  }).toPass({ intervals: [500] });
  return found!;
}

test("a header of a million names (8 MB) is refused with a 400 at once, and the server goes on answering", async ({ request }) => {
  test.setTimeout(120_000);
  const key = shelterKey();
  const header = Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(",");
  const file = Buffer.from(`${header}\n${Array.from({ length: 20_000 }, () => "x").join("\n")}\n`);
  expect(file.length).toBeGreaterThan(7_500_000);
  const forms: Record<string, string>[] = [{ format: "generic" }, {}];
  for (const fields of forms) {
    const res = await request.post("/v1/imports", {
      headers: bearer(key),
      multipart: { file: { name: "wide.csv", mimeType: "text/csv", buffer: file }, ...fields },
      timeout: 60_000,
    });
    await expectApiError(res, 400, "invalid_file");
    expect((await res.json()).details).toEqual([{ field: "file", issue: "too_many_columns" }]);
  }
  // Still there, for everyone: a list of animals, and an import of a real file.
  for (let i = 0; i < 4; i++) expect((await request.get("/v1/pets?limit=1", { headers: bearer(key) })).status()).toBe(200);
  const small = `${PETFINDER_HEADER}\nH-1,,Rex,,,M,M,Adult,,Dog,A${",".repeat(28)}\n`;
  const queued = await request.post("/v1/imports", {
    headers: bearer(key),
    multipart: { file: { name: "pets.csv", mimeType: "text/csv", buffer: Buffer.from(small) }, dryRun: "true" },
  });
  expect(queued.status()).toBe(202);
  expect(await waitForImport(request, key, (await queued.json()).id)).toMatchObject({ status: "done", counts: { rows: 1, created: 1 } });
});

test("a large report does not make the list of imports heavy: the list carries counts, the report is paged on its own route", async ({ request }) => {
  test.setTimeout(300_000);
  const key = shelterKey();
  // 3,000 rows, each rejected for a species of 2 KB: a report that quoted its cells would weigh 6 MB an import.
  const rows = Array.from({ length: 3_000 }, (_, i) => `L-${i},,Rex ${i},,,M,M,Adult,,Unicorn ${"x".repeat(2_000)},A${",".repeat(28)}`);
  const file = Buffer.from(`${PETFINDER_HEADER}\n${rows.join("\n")}\n`);
  const ids: number[] = [];
  for (let run = 0; run < 2; run++) {
    const queued = await request.post("/v1/imports", {
      headers: bearer(key),
      multipart: { file: { name: "unicorns.csv", mimeType: "text/csv", buffer: file }, dryRun: "true" },
      timeout: 60_000,
    });
    expect(queued.status(), await queued.text()).toBe(202);
    const { id } = await queued.json();
    // One at a time: a second one now is refused, naming the first.
    const second = await request.post("/v1/imports", {
      headers: bearer(key),
      multipart: { file: { name: "unicorns.csv", mimeType: "text/csv", buffer: file }, dryRun: "true" },
      timeout: 60_000,
    });
    await expectApiError(second, 409, "import_in_progress");
    expect((await second.json()).message).toContain(`Import ${id} of this organisation`);
    expect(await waitForImport(request, key, id)).toMatchObject({ status: "done", issues: 3_000, counts: { rows: 3_000, rejected: 3_000 } });
    ids.push(id);
  }

  const list = await request.get("/v1/imports?limit=100", { headers: bearer(key) });
  expect(list.status()).toBe(200);
  const body = await list.body();
  expect(body.byteLength).toBeLessThan(2_000);
  expect((await list.json()).map((i: { id: number }) => i.id)).toEqual([...ids].reverse());

  const one = await request.get(`/v1/imports/${ids[0]}`, { headers: bearer(key) });
  expect((await one.body()).byteLength).toBeLessThan(20_000);

  // The report, a page at a time: every entry once, in line order, each a short message.
  let total = 0;
  let lastLine = 0;
  for (let url: string | undefined = `/v1/imports/${ids[0]}/issues?limit=500`; url;) {
    const page: Awaited<ReturnType<APIRequestContext["get"]>> = await request.get(url, { headers: bearer(key) });
    expect(page.status()).toBe(200);
    expect((await page.body()).byteLength).toBeLessThan(500 * 300);
    const issues = (await page.json()) as { line: number; message: string }[];
    for (const issue of issues) {
      expect(issue.line).toBeGreaterThan(lastLine);
      expect(issue.message.length).toBeLessThan(200);
      lastLine = issue.line;
    }
    total += issues.length;
    url = /<([^>]+)>; rel="next"/.exec(page.headers()["link"] ?? "")?.[1];
  }
  expect(total).toBe(3_000);
});
