import { Command } from "commander";
import { validated, withDatabase } from "./shared";

export const orgsCommand = new Command("orgs").description("Organisations: the shelters and rescues animals, staff and keys belong to.");

orgsCommand
  .command("create")
  .description("Add an organisation. A US ZIP code (--postcode, --country US) places it; elsewhere give --lat and --lng.")
  .requiredOption("--name <name>", 'its name, e.g. "Lakeshore Animal Rescue"')
  .requiredOption("--city <city>", "its city")
  .option("--country <code>", "ISO 3166-1 alpha-2 country code", "US")
  .option("--street <street>", "street address")
  .option("--region <region>", "state, province or county, e.g. IL")
  .option("--postcode <code>", "postal code (a US ZIP code places the organisation)")
  .option("--lat <degrees>", "latitude (with --lng; needed outside the US)", Number)
  .option("--lng <degrees>", "longitude", Number)
  .option("--slug <slug>", "its URL name (default: made from the name)")
  .option("--email <email>", "public contact email")
  .option("--phone <phone>", "public phone number")
  .option("--website <url>", "its website")
  .option("--json", "print the organisation as JSON")
  .action(
    (opts: {
      name: string;
      city: string;
      country: string;
      street?: string;
      region?: string;
      postcode?: string;
      lat?: number;
      lng?: number;
      slug?: string;
      email?: string;
      phone?: string;
      website?: string;
      json?: boolean;
    }) =>
      withDatabase(async () => {
        const { newOrganizationSchema } = await import("@/lib/organizations/schemas");
        const { createOrganization } = await import("@/lib/organizations/service");
        if ((opts.lat === undefined) !== (opts.lng === undefined)) throw new Error("give --lat and --lng together");
        const input = await validated(newOrganizationSchema, {
          name: opts.name,
          slug: opts.slug,
          email: opts.email ?? null,
          phone: opts.phone ?? null,
          website: opts.website ?? null,
          address: { street: opts.street ?? null, city: opts.city, region: opts.region ?? null, postcode: opts.postcode ?? null, country: opts.country },
          ...(opts.lat !== undefined ? { location: { lat: opts.lat, lng: opts.lng } } : {}),
        });
        const organization = await createOrganization(input);
        if (opts.json) return console.log(JSON.stringify(organization, null, 2));
        const where = organization.location ? ` at ${organization.location.lat}, ${organization.location.lng}` : "";
        console.log(`Created organisation ${organization.id} "${organization.name}" (/shelters/${organization.slug})${where}.`);
        console.log(
          `Next: staff with \`npm run cli -- staff create --email E --org ${organization.slug}\`, keys with \`npm run cli -- keys create --name N --org ${organization.slug}\`.`,
        );
      }),
  );

orgsCommand
  .command("list")
  .description("List organisations: id, slug, name, city, and how many animals each has.")
  .option("--json", "print JSON")
  .action((opts: { json?: boolean }) =>
    withDatabase(async () => {
      const { db } = await import("@/lib/db");
      const rows = await db().organization.findMany({
        orderBy: { id: "asc" },
        select: { id: true, slug: true, name: true, city: true, region: true, country: true, lat: true, _count: { select: { pets: true } } },
      });
      if (opts.json)
        return console.log(
          JSON.stringify(
            rows.map((r) => ({ ...r, id: Number(r.id), animals: r._count.pets, _count: undefined })),
            null,
            2,
          ),
        );
      for (const r of rows) {
        const place = r.city ? [r.city, r.region, r.country].filter(Boolean).join(", ") : "no address yet";
        console.log(`${r.id}\t${r.slug}\t${r.name}\t${place}${r.lat === null ? " (not placed: near searches miss it)" : ""}\t${r._count.pets} animal(s)`);
      }
    }),
  );
