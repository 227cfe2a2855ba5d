import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { onShutdown } from "@/lib/lifecycle";

// One Prisma client per process. In development Next re-evaluates modules on
// every change; keeping the client on globalThis stops each reload from
// opening a new pool until PostgreSQL runs out of connections.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  const { DATABASE_URL, DATABASE_POOL_SIZE } = env();
  if (!DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: start the app through `npm start` / `npm run dev`, which provide one.");
  }
  const adapter = new PrismaPg({ connectionString: DATABASE_URL, max: DATABASE_POOL_SIZE, application_name: applicationName() });
  // Graceful shutdown closes the pool after the last request (lib/lifecycle.ts).
  onShutdown("database pool", disconnectDb);
  return new PrismaClient({ adapter });
}

/**
 * How this process's connections are named in pg_stat_activity, so an
 * operator (and the shutdown test) can tell which instance holds which.
 */
export function applicationName(): string {
  return `petstore:${process.pid}`;
}

/** The client is created on first use, so `next build` needs no database. */
export function db(): PrismaClient {
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.prisma?.$disconnect();
  globalForPrisma.prisma = undefined;
}
