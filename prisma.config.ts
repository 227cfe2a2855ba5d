import path from "node:path";
import { fileURLToPath } from "node:url";

import { defineConfig } from "prisma/config";

const repoRoot = path.dirname(fileURLToPath(import.meta.url));

// The prisma CLI would download its native schema engine from
// binaries.prisma.sh, which is unreachable here. Point it at our shim, which
// runs Prisma's WebAssembly build of the engine instead
// (docs/decisions/001-prisma-wasm-schema-engine.md). An explicit
// PRISMA_SCHEMA_ENGINE_BINARY wins; delete this line to go back to the native
// binary once it can be downloaded.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(repoRoot, "prisma/engine/schema-engine.mjs");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: {
    path: "prisma/migrations",
    seed: "node --import tsx prisma/seed.ts",
  },
  datasource: {
    // Not `env("DATABASE_URL")`: that helper throws when the variable is
    // unset, and `prisma generate` (CI, fresh checkouts) must work without a
    // database. The placeholder is only a stand-in for that case: the
    // `.invalid` host can never resolve (RFC 2606), so a command that really
    // needs a database fails with "can't reach database server" instead of
    // touching (or `migrate dev` creating) some local database.
    url: process.env.DATABASE_URL ?? "postgresql://database-url-not-set.invalid:5432/placeholder",
    // Optional: a fixed shadow database for `migrate dev` (by default a
    // throw-away one is created and dropped on the same server).
    ...(process.env.SHADOW_DATABASE_URL ? { shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL } : {}),
  },
});
