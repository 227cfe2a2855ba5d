import { expect, test, type APIRequestContext } from "@playwright/test";
import { bearer, cli, createKey, createPet } from "../helpers";

// Applicants' personal data from the command line, as an operator answers an
// access or erasure request: `applicants export` prints everything held as
// JSON; `applicants erase` only says what it would do until `--yes` is
// given, then anonymises, leaving the animals and their history as they were.

test.describe.configure({ mode: "serial" });

let key: string;
test.beforeAll(() => {
  key = createKey("e2e applicants cli", "--scopes", "pets:read,pets:write,applications:write");
});

interface Exported {
  email: string;
  exportedAt: string;
  applications: {
    id: number;
    state: string;
    name: string | null;
    email: string | null;
    phone: string | null;
    home: string | null;
    otherAnimals: string | null;
    message: string | null;
    decisionMessage: string | null;
    consentAt: string;
    createdAt: string;
    updatedAt: string;
    pet: { id: number; name: string };
    steps: { from: string | null; to: string; at: string; by: string }[];
  }[];
}

async function newPet(request: APIRequestContext, name: string): Promise<{ id: number; name: string; version: number }> {
  return createPet(request, key, { name });
}

function exportOf(email: string): Exported {
  const run = cli("applicants", "export", "--email", email);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Exported;
}

test("export prints everything held as JSON; erase reports without --yes and changes nothing; with --yes it anonymises, the animals untouched", async ({
  request,
}) => {
  const stamp = Date.now().toString(36);
  const email = `jo.cli.${stamp}@example.org`;
  const pets = [await newPet(request, `Cli Rex ${stamp}`), await newPet(request, `Cli Tabby ${stamp}`)];
  const applicant = {
    name: "Jo Commandline",
    email: email.toUpperCase(),
    phone: "+44 20 7946 0101",
    home: "flat",
    otherAnimals: "A goldfish",
    message: "We work from home.\nLots of walks.",
    consent: true,
  };
  const links: string[] = [];
  for (const pet of pets) {
    const res = await request.post(`/v1/pets/${pet.id}/applications`, { headers: bearer(key), data: applicant });
    expect(res.status(), await res.text()).toBe(201);
    links.push(((await res.json()) as { statusUrl: string }).statusUrl);
  }

  // Everything held, whatever case the operator types the address in.
  const exported = exportOf(email.replace("jo", "JO"));
  expect(exported.email).toBe(email);
  expect(Date.parse(exported.exportedAt)).not.toBeNaN();
  expect(exported.applications.map((a) => a.pet)).toEqual(pets.map(({ id, name }) => ({ id, name })));
  for (const application of exported.applications) {
    expect(application).toMatchObject({
      state: "received",
      name: "Jo Commandline",
      email,
      phone: "+44 20 7946 0101",
      home: "flat",
      otherAnimals: "A goldfish",
      message: "We work from home.\nLots of walks.",
      decisionMessage: null,
    });
    expect(application.steps).toEqual([{ from: null, to: "received", at: expect.any(String), by: "api_key" }]);
    expect(Date.parse(application.consentAt)).not.toBeNaN();
  }
  // Nobody else's.
  expect(exportOf(`someone.else.${stamp}@example.org`).applications).toEqual([]);

  // Without --yes: says what it would do, does nothing.
  const dry = cli("applicants", "erase", "--email", email);
  expect(dry.status, dry.stderr).toBe(0);
  expect(dry.stdout.trim()).toBe(`2 application(s) of ${email} would be anonymised and 0 alert(s) deleted. Run again with --yes to do it.`);
  expect(exportOf(email)).toMatchObject({ applications: exported.applications.map((a) => ({ id: a.id, state: "received", name: "Jo Commandline", email })) });

  // With --yes: anonymised (undecided ones withdrawn); nothing left to export.
  const done = cli("applicants", "erase", "--email", email, "--yes");
  expect(done.status, done.stderr).toBe(0);
  expect(done.stdout.trim()).toBe(`Anonymised 2 application(s) and deleted 0 alert(s) of ${email}.`);
  expect(exportOf(email).applications).toEqual([]);
  // The applicant's own links show a withdrawn application with no name.
  for (const link of links) {
    const token = link.split("/").at(-1)!;
    const res = await request.get(`/v1/application-links/${token}`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ state: "withdrawn", name: null });
  }
  // The animals are as they were: available, at their version.
  const listed = await request.get(`/v1/pets?id=${pets.map((p) => p.id).join(",")}`, { headers: bearer(key) });
  expect(
    ((await listed.json()) as { id: number; status: string; version: number }[])
      .map(({ id, status, version }) => ({ id, status, version }))
      .sort((a, b) => a.id - b.id),
  ).toEqual(pets.map(({ id, version }) => ({ id, status: "available", version })));
  // Nothing more to erase.
  expect(cli("applicants", "erase", "--email", email).stdout.trim()).toBe(
    `0 application(s) of ${email} would be anonymised and 0 alert(s) deleted. Run again with --yes to do it.`,
  );
});

test("export and erase refuse to run without --email", () => {
  for (const command of ["export", "erase"]) {
    const run = cli("applicants", command);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("required option '--email <email>' not specified");
  }
});
