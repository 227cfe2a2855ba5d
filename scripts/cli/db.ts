import path from "node:path";
import { Command } from "commander";
import { ROOT } from "../database";
import { migrateAndSeed, run } from "../launch";
import { withDatabase } from "./shared";

export const dbCommand = new Command("db").description("Database schema and demo data.");

dbCommand
  .command("migrate")
  .description("Apply committed migrations (prisma migrate deploy), then seed an empty database.")
  .action(() =>
    withDatabase(async () => {
      await migrateAndSeed({ ...process.env });
    }),
  );

dbCommand
  .command("seed")
  .description("Add the demo categories and animals (idempotent: never duplicates).")
  .action(() =>
    withDatabase(async () => {
      const { DEMO_STAFF, seed } = await import("@/prisma/seed");
      const result = await seed();
      console.log(`Seeded ${result.categories} categories, ${result.petsAdded} animals added.`);
      if (result.demoLogin) console.log(`Demo staff login: ${DEMO_STAFF.email} / ${DEMO_STAFF.password}`);
    }),
  );

dbCommand
  .command("reset")
  .description("Drop all data, re-apply every migration and seed again. Destroys data.")
  .requiredOption("--yes", "confirm that all data in the database is to be destroyed")
  .action(() =>
    withDatabase(async () => {
      run(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", "reset", "--force"], { ...process.env });
      await migrateAndSeed({ ...process.env });
    }),
  );
