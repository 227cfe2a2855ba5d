import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { fixture, importFile } from "./imports-helpers";
import { newKey, newOrganization } from "./helpers";

// The files the listing-site uploads put on the sites' FTP servers (written
// by tests/api/listing-uploads.test.ts, byte for byte what a shelter's
// account receives), imported back through POST /v1/imports: a shelter that
// leaves with its files, or moves between two Petstore installations, loses
// nothing that each format carries. Zoë is the animal with a full
// profile; what each site's format has no column for is not compared.

const ZOE = {
  name: "Zoë",
  categoryId: 1n,
  status: "available",
  sex: "female",
  size: "large",
  description: 'Loves tennis balls & naps.\nShy with men at first; "zoomies" at 6pm.',
  colors: ["Black"],
};

async function importedZoe(file: string) {
  const org = await newOrganization({ name: `Moved In ${file}` });
  const { key } = await newKey(["pets:read", "pets:write"], "round trip", { plan: "pro" }, org);
  const report = await importFile({ key }, fixture(`uploaded/${file}`));
  expect(report.status).toBe("done");
  expect(report.counts.rejected).toBe(0);
  const again = await importFile({ key }, fixture(`uploaded/${file}`));
  expect(again.counts).toMatchObject({ created: 0, updated: 0, rejected: 0 });
  return {
    report,
    zoe: await db().pet.findFirstOrThrow({ where: { organizationId: BigInt(org), externalId: "A-101" } }),
  };
}

describe("a file the uploads wrote imports back with nothing lost that its format carries", () => {
  beforeAll(() => {
    expect(fixture("uploaded/petfinder-import-CA1234").length).toBeGreaterThan(0);
  });

  it("Petfinder: the whole profile, and the photo addresses queued for fetching", async () => {
    const { report, zoe } = await importedZoe("petfinder-import-CA1234");
    expect(report).toMatchObject({ format: "petfinder", counts: { rows: 4, created: 4 } });
    expect(zoe).toMatchObject({
      ...ZOE,
      birthDate: new Date("2021-06-15T00:00:00Z"),
      breed: "Labrador Retriever",
      secondaryBreed: "Border Collie",
      mixedBreed: true,
      goodWithChildren: true,
      goodWithDogs: false,
      goodWithCats: null,
      coatLength: "short",
      spayedNeutered: true,
      houseTrained: true,
      shotsCurrent: true,
      adoptionFeeCents: 15000,
      adoptionFeeCurrency: "USD",
      adoptionFeeWaived: false,
      intakeDate: new Date("2026-03-02T00:00:00Z"),
      tags: ["friendly"],
    });
    expect(report.photos.queued).toBe(2);
  });

  it("Adopt-a-Pet (no header row, as uploaded with its import.cfg)", async () => {
    const { report, zoe } = await importedZoe("adoptapet-pets.csv");
    expect(report).toMatchObject({ format: "adoptapet", counts: { rows: 3, created: 3 } });
    expect(zoe).toMatchObject({
      ...ZOE,
      breed: "Labrador Retriever",
      secondaryBreed: "Border Collie",
      mixedBreed: true,
      goodWithChildren: true,
      goodWithDogs: false,
      spayedNeutered: true,
      houseTrained: true,
      shotsCurrent: true,
    });
  });

  it("RescueGroups", async () => {
    const { report, zoe } = await importedZoe("rescuegroups-import-pets.csv");
    expect(report).toMatchObject({ format: "rescuegroups", counts: { rows: 3, created: 3 } });
    expect(zoe).toMatchObject({
      ...ZOE,
      breed: "Labrador Retriever",
      secondaryBreed: "Border Collie",
      mixedBreed: true,
      goodWithChildren: true,
      goodWithDogs: false,
      coatLength: "short",
      spayedNeutered: true,
      houseTrained: true,
      shotsCurrent: true,
    });
  });
});
