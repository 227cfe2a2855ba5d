import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { type IsoDate } from "@/lib/pets/age";

// The stored age groups' freshness, and the daily job that moves them on.

let refreshed: { on: IsoDate; readAt: number } | undefined;
const REFRESHED_TTL_MS = 60_000;

/**
 * The day stored age groups were last brought up to date (a daily job moves
 * it on). Kept a minute per process: a value older than the truth only
 * widens the age filter's re-checked window a little, never loses a row.
 */
export async function ageGroupsRefreshedOn(): Promise<IsoDate> {
  if (refreshed && performance.now() - refreshed.readAt < REFRESHED_TTL_MS) return refreshed.on;
  const rows = await query<{ on: string }>(Prisma.sql`SELECT refreshed_on::text AS "on" FROM age_group_refresh`);
  // No row (a database emptied by hand): nothing is known, so every birth date is re-checked.
  const on = rows[0]?.on ?? "1900-01-01";
  refreshed = { on, readAt: performance.now() };
  return on;
}

/** Moves every stored age group on to `day` (UTC); returns how many animals changed group. */
export async function refreshAgeGroups(day: IsoDate): Promise<number> {
  const rows = await db().$queryRaw<{ changed: number }[]>`SELECT refresh_pet_age_groups(${day}::date) AS changed`;
  refreshed = undefined;
  return Number(rows[0]?.changed ?? 0);
}
