import { expect, test } from "@playwright/test";
import pg from "pg";
import { freshDatabase } from "../deploy/topology";
import { bearer, cli, createKey, createPet, runCli } from "../helpers";

// Commands an operator runs once there are several shelters: `keys create`
// and `staff create` say whose the key or account is (the first
// organisation is no longer a safe guess), and an unsubscribe that arrives
// by mail is honoured with `alerts delete`, which deletes that one alert for
// its sender and nothing else of theirs.

test.describe.configure({ mode: "serial", timeout: 180_000 });

let url: string;
/** The CLI on this file's own database, which starts with the one organisation a fresh install has. */
const onOwn = (args: string[], input?: string) => runCli(args, { env: { DATABASE_URL: url, LOG_LEVEL: "warn" }, input });

test.beforeAll(async () => {
  // A migration and a seed through the CLI: minutes on a machine busy with other builds.
  test.setTimeout(240_000);
  url = await freshDatabase(`${process.env.E2E_DATABASE ?? "petstore_e2e"}_operators`);
  // As a one-shelter install has it: the seed's demo shelters (and all that is theirs) go, the first organisation stays alone.
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query("TRUNCATE organizations RESTART IDENTITY CASCADE");
  await db.query("INSERT INTO organizations (name, slug) VALUES ('Petstore', 'petstore')");
  await db.end();
});

test("with one organisation, keys and staff accounts are its own without --org; with two, --org (or the platform's flag) is required", async () => {
  const solo = onOwn(["keys", "create", "--name", "Solo app"]);
  expect(solo.status, solo.stderr).toBe(0);
  expect(solo.stderr).toContain("key of organisation 1");
  expect(onOwn(["staff", "create", "--email", "solo@shelter.example"], "a long enough password\n").status).toBe(0);

  const second = onOwn(["orgs", "create", "--name", "Second Chance", "--slug", "second-chance", "--city", "Chicago", "--postcode", "60601"]);
  expect(second.status, second.stderr).toBe(0);

  const key = onOwn(["keys", "create", "--name", "Whose app"]);
  expect(key.status).not.toBe(0);
  expect(key.stderr).toContain("There are 2 organisations: say whose with --org <id|slug> (or --platform for a platform key)");
  const staff = onOwn(["staff", "create", "--email", "whose@shelter.example"], "a long enough password\n");
  expect(staff.status).not.toBe(0);
  expect(staff.stderr).toContain("--platform-admin");
  const keys = JSON.parse(onOwn(["keys", "list", "--json"]).stdout) as { name: string; organizationId: number | null }[];
  expect(keys.map((k) => k.name)).not.toContain("Whose app");
  expect(onOwn(["staff", "list"]).stdout).not.toContain("whose@shelter.example");

  const named = onOwn(["keys", "create", "--name", "Second's app", "--org", "second-chance"]);
  expect(named.status, named.stderr).toBe(0);
  expect(onOwn(["keys", "create", "--name", "Listing site", "--platform"]).status).toBe(0);
  expect(onOwn(["staff", "create", "--email", "whose@shelter.example", "--org", "second-chance"], "a long enough password\n").status).toBe(0);
  expect(onOwn(["staff", "create", "--email", "ops@petstore.example", "--platform-admin"], "a long enough password\n").status).toBe(0);
  const after = JSON.parse(onOwn(["keys", "list", "--json"]).stdout) as { name: string; organizationId: number | null }[];
  expect(after.find((k) => k.name === "Second's app")?.organizationId).toBe(2);
  expect(after.find((k) => k.name === "Listing site")?.organizationId).toBeNull();
});

test("alerts delete honours a mailto unsubscribe: that alert only, only for its sender; the person's application stays", async ({ request }) => {
  const key = createKey("e2e unsubscribe by mail", "--plan", "business", "--scopes", "pets:read,pets:write,applications:write");
  const stamp = Date.now().toString(36);
  const email = `mailto.${stamp}+alerts@example.org`;
  for (const categoryId of [1, 2]) {
    const res = await request.post("/v1/alerts", { headers: bearer(key), data: { email, frequency: "daily", filters: { categoryId }, consent: true } });
    expect(res.status(), await res.text()).toBe(202);
  }
  const pet = await createPet(request, key, { name: `Mailto ${stamp}` });
  const applied = await request.post(`/v1/pets/${pet.id}/applications`, {
    headers: bearer(key),
    data: { name: "Mai Lto", email: `mailto.${stamp}@example.org`, home: "house", message: "Hello", consent: true },
  });
  expect(applied.status()).toBe(201);

  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const alerts = async () => (await db.query<{ id: string }>("SELECT id FROM alerts WHERE email = $1 ORDER BY id", [email])).rows.map((r) => r.id);
    const [first, second] = await alerts();

    const stranger = cli("alerts", "delete", "--id", first!, "--email", `someone.${stamp}@example.org`);
    expect(stranger.status).not.toBe(0);
    expect(stranger.stderr).toContain(`No alert ${first} goes to someone.${stamp}@example.org: nothing was deleted.`);
    expect(await alerts()).toEqual([first, second]);

    // The sender writes from the plain address; the alert was made with a +tag.
    const owner = cli("alerts", "delete", "--id", first!, "--email", `Mailto.${stamp}@example.org`);
    expect(owner.status, owner.stderr).toBe(0);
    expect(owner.stdout).toContain(`Deleted alert ${first}`);
    expect(await alerts()).toEqual([second]);
    const { rows } = await db.query<{ state: string; name: string }>("SELECT state, name FROM adoption_applications WHERE email = $1", [
      `mailto.${stamp}@example.org`,
    ]);
    expect(rows).toEqual([{ state: "received", name: "Mai Lto" }]);
  } finally {
    await db.end();
  }
});
