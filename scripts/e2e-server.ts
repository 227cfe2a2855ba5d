/**
 * The end-to-end suite's server: a freshly recreated database (so every run
 * starts from the same seed), then the ordinary launcher's `start`.
 */
import { createDatabaseIfMissing, dropDatabase } from "./database";
import { main } from "./launch";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
await dropDatabase(url);
await createDatabaseIfMissing(url);
await main(["start"]);
