import { setBounded } from "@/lib/bounded-map";
import { query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/core/errors";
import type { ListingSite } from "@/lib/core/listing-sites";
import { buildSnapshot, etagOfBytes } from "@/lib/listings/uploads/snapshot";
import { isoDay } from "@/lib/pets/age";
import { petView } from "@/lib/pets/present";

// The pull feed (GET /v1/organizations/{id}/listings/{site}.csv): the file an
// upload to that site would send now. Building it reads every listed animal
// with its photos and writes the whole file; doing that for every request,
// 304s included, let anyone with pets:read make us do it as often as they
// like. So each instance keeps the last file per organisation and site,
// under a version read cheaply on every request:
//   - the organisation's last change: the highest position of its events.
//     Every change to an animal (photos included) writes one in its own
//     transaction, and positions become visible in commit order (decision
//     005), so the same highest position means no animal of it changed; a
//     newer one, or none any more (swept after 30 days), builds it again;
//   - the account id the file carries (Petfinder's file name, RescueGroups'
//     orgID), the day (an age group is the day's), the photo address base.
// The version is read before the animals, so a file is never older than the
// version it is kept under (it may be newer: then the next request builds
// it again). Every instance checks against the database: no instance can
// serve a file older than the animals, whichever built it.

interface Cached {
  version: string;
  bytes: Buffer;
  etag: string;
}

const cache = new Map<string, Cached>();
/** Files kept per instance: a few hundred organisations' sites, each a few hundred kilobytes at most. */
const CACHE_MAX = 200;

export async function listingFeed(organizationId: number, site: ListingSite, now: Date): Promise<{ bytes: Buffer; etag: string }> {
  const org = BigInt(organizationId);
  // One round trip: whether the organisation exists, the account id its own upload uses, and its last change.
  const [row] = await query<{ exists: boolean; accountId: string | null; lastChange: bigint | null }>(Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM organizations WHERE id = ${org}) AS exists,
           (SELECT account_id FROM listing_sites WHERE organization_id = ${org} AND site = ${site}::"ListingSiteKind"
             ORDER BY enabled DESC, id ASC LIMIT 1) AS "accountId",
           (SELECT max(position) FROM events WHERE organization_id = ${org}) AS "lastChange"`);
  if (!row?.exists) throw notFound("organisation", organizationId);
  const version = JSON.stringify([String(row.lastChange ?? ""), row.accountId, isoDay(now), petView(now).photoBase]);
  const key = `${organizationId}:${site}`;
  const hit = cache.get(key);
  if (hit?.version === version) return hit;
  const snapshot = await buildSnapshot(organizationId, site, row.accountId, now);
  const built: Cached = { version, bytes: snapshot.file.bytes, etag: etagOfBytes(snapshot.file.bytes) };
  setBounded(cache, key, built, CACHE_MAX);
  return built;
}
