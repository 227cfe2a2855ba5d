import { query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// The planner's statistics are refreshed by autovacuum's ANALYZE. A server
// that runs without autovacuum (CI's, this machine's), or a table with it
// switched off, keeps the statistics of the day it was last analyzed, and
// the plans made from them: a database started with 64 demo animals and
// grown to thousands within minutes had its name search walk every animal
// newest first, since the statistics said most names held the text
// (docs/decisions/026). This does what autovacuum's ANALYZE would do, at its
// default threshold, for the tables autovacuum does not serve; where it
// does, it does nothing.

/** Tables analyzed at most per run (the ones changed most first); the rest wait a minute. */
const MAX_TABLES_PER_RUN = 10;

/**
 * ANALYZE of every table of the schema changed by more than 50 rows plus a
 * tenth of its size since its last analysis (autovacuum's own default
 * threshold), when autovacuum does not run for it. Returns the tables analyzed.
 */
export async function analyzeGrownTables(): Promise<string[]> {
  const rows = await query<{ name: string }>(Prisma.sql`
    SELECT format('%I.%I', s.schemaname, s.relname) AS name
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = current_schema()
       AND s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
       AND (current_setting('autovacuum') = 'off'
            OR coalesce(c.reloptions, '{}') && ARRAY['autovacuum_enabled=off', 'autovacuum_enabled=false', 'autovacuum_enabled=0'])
     ORDER BY s.n_mod_since_analyze DESC
     LIMIT ${MAX_TABLES_PER_RUN}`);
  for (const { name } of rows) await query(Prisma.sql`ANALYZE ${Prisma.raw(name)}`);
  return rows.map((r) => r.name);
}
