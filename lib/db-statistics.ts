import { query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// Autovacuum keeps two things the planner relies on: statistics (its
// ANALYZE) and the visibility map (its VACUUM, which also clears dead row
// versions). A server that runs without autovacuum (CI's, this machine's),
// or a table with it switched off, keeps the statistics of the day it was
// last analyzed and marks no page written since then all-visible:
// - a database started with 64 demo animals and grown to thousands within
//   minutes had its name search walk every animal newest first, since the
//   statistics said most names held the text;
// - a filtered list (status and category) priced the index-only walk of its
//   (status, category, id) index as a table walk, since no new page was
//   all-visible, and walked every available animal newest first instead:
//   for a category whose animals were all behind 35,000 newer ones of
//   another, 1,100 buffers for a page of 21 (docs/decisions/026).
// This does what autovacuum would do, at its default thresholds, for the
// tables autovacuum does not serve; where it does, it does nothing. (Without
// autovacuum's cost-based pauses: it is meant for servers where nothing
// else vacuums.)

/** Tables kept per run (the ones changed most first); the rest wait a minute. */
const MAX_TABLES_PER_RUN = 10;

export interface Maintained {
  /** Tables analyzed (alone, or with their VACUUM). */
  analyzed: string[];
  vacuumed: string[];
}

/**
 * For every table of the schema not served by autovacuum: ANALYZE when more
 * than 50 rows plus a tenth of its size changed since its last analysis;
 * VACUUM when more than 50 rows plus a fifth of its size are dead, or more
 * than 1,000 rows plus a fifth of its size were inserted since its last
 * VACUUM (autovacuum's own default thresholds).
 */
export async function maintainGrownTables(): Promise<Maintained> {
  const rows = await query<{ name: string; analyze: boolean; vacuum: boolean }>(Prisma.sql`
    SELECT name, to_analyze AS "analyze", to_vacuum AS "vacuum" FROM (
      SELECT format('%I.%I', s.schemaname, s.relname) AS name,
             s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) AS to_analyze,
             (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) AS to_vacuum,
             s.n_mod_since_analyze + s.n_dead_tup + s.n_ins_since_vacuum AS changed
        FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
       WHERE s.schemaname = current_schema()
         AND (current_setting('autovacuum') = 'off'
              OR coalesce(c.reloptions, '{}') && ARRAY['autovacuum_enabled=off', 'autovacuum_enabled=false', 'autovacuum_enabled=0'])
    ) t
     WHERE to_analyze OR to_vacuum
     ORDER BY changed DESC
     LIMIT ${MAX_TABLES_PER_RUN}`);
  const done: Maintained = { analyzed: [], vacuumed: [] };
  for (const { name, analyze, vacuum } of rows) {
    const table = Prisma.raw(name);
    // VACUUM cannot run in a transaction: each is a statement of its own on the pool.
    if (vacuum) await query(analyze ? Prisma.sql`VACUUM (ANALYZE) ${table}` : Prisma.sql`VACUUM ${table}`);
    else await query(Prisma.sql`ANALYZE ${table}`);
    if (analyze) done.analyzed.push(name);
    if (vacuum) done.vacuumed.push(name);
  }
  return done;
}
