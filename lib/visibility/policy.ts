import { Prisma } from "@/lib/generated/prisma/client";
import type { Scope } from "@/lib/keys/schemas";
import { forbidden, PUBLIC, type Tenancy } from "@/lib/organizations/tenancy";
import type { Caller } from "@/lib/sessions/caller";

// Who may see what of an animal and its records: the one place that says it
// (docs/decisions/027). Every reader asks here, never a condition of its own:
// lists take their SQL condition from `animalsCondition`, a look-up of one
// animal asks `mayReadAnimal`, the change feed and webhook deliveries ask
// `feedViewOf` / `deliveredTypeSql`, files, mails and alerts read as
// THE_PUBLIC. tests/api/visibility.test.ts walks every caller against every
// reader and fails on a reader that is not in its table.
//
// What there is to see of an animal:
//   listed      an animal in care: public, for anyone with pets:read
//   records     an animal out of care (it left any way but adoption), its stays
//               (how it came in and left, and the shelter's own words for it),
//               and every change made while it was out of care: the
//               organisation's records. Its staff and its keys with
//               records:read read them; a platform admin and a platform key
//               with records:read read every organisation's. Nobody else.
// Everyone else sees an animal that leaves care as no longer listed (the
// feed's one neutral `pet.unlisted`), nothing while it is out of care, and a
// `pet.listed` when it comes back.
//   people      the organisation's people (fosters): name, email, phone, home,
//               notes. Personal data (docs/decisions/028): its staff and its
//               keys with people:read read them, a platform admin or platform
//               key with people:read every organisation's. Nobody else, and
//               never a file, the feed, a webhook or a mail.
//   custody     where an animal in care lives: every reader of the animal sees
//               that it lives in a foster home and the foster's city and
//               region (or the organisation's place, when it chooses so);
//               which foster, only readers of the people.

/** Who is reading: a caller of the API, or the public (files for listing sites, alert mails, the pull feed). */
export interface Viewer {
  kind: "key" | "staff" | "adopter" | "public";
  scopes: readonly Scope[];
  tenancy: Tenancy;
}

/** The public: what listing sites' files, the pull feed and alert mails show. */
export const THE_PUBLIC: Viewer = { kind: "public", scopes: ["pets:read"], tenancy: PUBLIC };

export function viewerOf(caller: Pick<Caller, "kind" | "scopes" | "tenancy"> & { staff?: unknown }): Viewer {
  if (caller.kind === "key") return { kind: "key", scopes: caller.scopes, tenancy: caller.tenancy };
  if (caller.kind === "session" && caller.staff) return { kind: "staff", scopes: caller.scopes, tenancy: caller.tenancy };
  return { kind: caller.kind === "session" ? "adopter" : "public", scopes: caller.scopes, tenancy: PUBLIC };
}

/**
 * Whose records the viewer reads: every organisation's ("all"), one
 * organisation's (its id), or none (null). The one rule every other answer
 * here is made of.
 */
export function recordsOf(viewer: Viewer): "all" | number | null {
  if (viewer.kind !== "key" && viewer.kind !== "staff") return null;
  if (!viewer.scopes.includes("records:read")) return null;
  if (viewer.tenancy.kind === "platform") return "all";
  return viewer.tenancy.kind === "organization" ? viewer.tenancy.organizationId : null;
}

export function mayReadRecordsOf(viewer: Viewer, organizationId: number | bigint): boolean {
  const scope = recordsOf(viewer);
  return scope === "all" || (scope !== null && scope === Number(organizationId));
}

/**
 * Whose people the viewer reads: every organisation's, one organisation's,
 * or none. Staff hold people:read; a key only when it was given it.
 */
export function peopleOf(viewer: Viewer): "all" | number | null {
  if (viewer.kind !== "key" && viewer.kind !== "staff") return null;
  if (!viewer.scopes.includes("people:read")) return null;
  if (viewer.tenancy.kind === "platform") return "all";
  return viewer.tenancy.kind === "organization" ? viewer.tenancy.organizationId : null;
}

export function mayReadPeopleOf(viewer: Viewer, organizationId: number | bigint): boolean {
  const scope = peopleOf(viewer);
  return scope === "all" || (scope !== null && scope === Number(organizationId));
}

/**
 * What the viewer sees of where an animal of the organisation lives:
 * "people", the foster (person id and name) too; "public", only that it
 * lives in a foster home and the foster's city and region.
 */
export type CustodyView = "people" | "public";

export function custodyViewOf(viewer: Viewer, organizationId: number | bigint): CustodyView {
  return mayReadPeopleOf(viewer, organizationId) ? "people" : "public";
}

/** An animal as the rule needs it. */
export interface AnimalFacts {
  organizationId: number | bigint;
  inCare: boolean;
}

/** Whether the viewer may see this animal at all (an animal out of care is a record). */
export function mayReadAnimal(viewer: Viewer, animal: AnimalFacts): boolean {
  return animal.inCare || mayReadRecordsOf(viewer, animal.organizationId);
}

/** Which animals a list holds. */
export type ListKind =
  /** Every list adopters and partners see: animals in care. */
  | "listed"
  /** A look-up by ids: those in care, and those out of care whose records the viewer reads. */
  | "by-id"
  /** `?inCare=false`: the animals out of care whose records the viewer reads (staff finding one that left). */
  | "out-of-care";

/**
 * A list's condition on `pets` (Pundit's scope beside `mayReadAnimal`'s
 * check, so a list and a look-up cannot disagree). `column` qualifies the
 * columns when the statement joins (`p.`). "listed" is exactly `in_care`,
 * the predicate of the page indexes (migration 20261203100100).
 */
export function animalsCondition(viewer: Viewer, kind: ListKind, table?: string): Prisma.Sql {
  const col = (name: string) => Prisma.raw(table ? `${table}.${name}` : name);
  const scope = recordsOf(viewer);
  if (kind === "out-of-care") {
    if (scope === null) throw outOfCareRefused();
    return scope === "all" ? Prisma.sql`NOT ${col("in_care")}` : Prisma.sql`(NOT ${col("in_care")} AND ${col("organization_id")} = ${BigInt(scope)})`;
  }
  if (kind === "by-id" && scope === "all") return Prisma.sql`TRUE`;
  if (kind === "by-id" && scope !== null) return Prisma.sql`(${col("in_care")} OR ${col("organization_id")} = ${BigInt(scope)})`;
  return col("in_care");
}

/** A "listed" list's condition as a Prisma filter, for readers that query through the client (the listing sites' files). */
export function listedWhere(): { inCare: true } {
  return { inCare: true };
}

export function outOfCareRefused() {
  return forbidden("Animals out of care are their organisation's records: only its staff and its keys with records:read can list them (inCare=false).");
}

// The change feed and webhooks.

/**
 * How the viewer reads the feed: "records", every event as it was written
 * (the stays' events with their stay, changes made out of care); "listing",
 * each event as the public sees it (its `public_type`, never a stay: see
 * the migration 20261210000000 that computes it at commit), or nothing.
 */
export type FeedView = "records" | "listing";

export function feedViewOf(viewer: Viewer, organizationId: number | bigint): FeedView {
  return mayReadRecordsOf(viewer, organizationId) ? "records" : "listing";
}

/**
 * How the viewer reads a page of the feed. An organisation's viewer reads
 * only its own organisation's events (lib/events/service.ts), a platform
 * viewer every organisation's records or none: one view holds for the page.
 */
export function feedPageView(viewer: Viewer): FeedView {
  return recordsOf(viewer) === null ? "listing" : "records";
}

/** The feed is for partners' keys and staff; an adopter's browser never reads it (no page does). */
export function assertMayReadFeed(viewer: Viewer): void {
  if (viewer.kind !== "key" && viewer.kind !== "staff") {
    throw forbidden("The change feed is for API keys: call with `Authorization: Bearer <API_KEY>`.");
  }
}

/**
 * The feed's condition on `events` for a viewer: the events it reads at all,
 * of one type when asked. Records readers match the written type; the others
 * the public one, and never an event the public does not see (public_type
 * null). An organisation's viewer reads only its own organisation's events
 * (the caller's tenancy, applied beside this), so one view holds for a page.
 */
export function feedCondition(view: FeedView, type?: string): Prisma.Sql {
  const column = view === "records" ? Prisma.sql`type` : Prisma.sql`public_type`;
  return type === undefined ? Prisma.sql`${column} IS NOT NULL` : Prisma.sql`${column} = ${type}`;
}

/**
 * The type of event an API key's webhook endpoint is delivered, in SQL (the
 * dispatcher matches it with the endpoint's subscriptions for many keys in
 * one statement): the written type for a key that reads the event's
 * organisation's records, the public type otherwise (null: nothing is
 * delivered). `key` and `event` are the statement's aliases of api_keys and
 * the events; the key's own organisation is matched by the dispatcher.
 */
export function deliveredTypeSql(key: string, event: string): Prisma.Sql {
  const k = (c: string) => Prisma.raw(`${key}.${c}`);
  const e = (c: string) => Prisma.raw(`${event}.${c}`);
  return Prisma.sql`(CASE WHEN 'records:read' = ANY (${k("scopes")}) AND (${k("organization_id")} IS NULL OR ${k("organization_id")} = ${e("organization_id")})
                          THEN ${e("type")} ELSE ${e("public_type")} END)`;
}

/** The viewer an API key is, for a delivery decided at delivery time (its scopes now, not when it subscribed). */
export function keyViewer(key: { scopes: readonly Scope[]; organizationId: number | bigint | null }): Viewer {
  return {
    kind: "key",
    scopes: key.scopes,
    tenancy: key.organizationId === null ? { kind: "platform" } : { kind: "organization", organizationId: Number(key.organizationId) },
  };
}

/** Event types only records readers are sent: subscribing to them needs records:read. */
export const RECORDS_EVENT_TYPES: readonly string[] = ["pet.stay.started", "pet.stay.ended"];

export function assertMaySubscribe(viewer: Viewer, types: readonly string[]): void {
  const records = types.filter((t) => RECORDS_EVENT_TYPES.includes(t));
  if (records.length && recordsOf(viewer) === null) {
    throw forbidden(`${records.join(" and ")} carry the organisation's records: subscribing needs a key with records:read.`);
  }
}
