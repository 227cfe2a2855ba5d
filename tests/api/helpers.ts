/**
 * Helpers for the API tests: they call the real route handlers with real
 * Request objects, against the test database (see tests/setup.ts).
 */
import { afterAll, expect, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { setCounterStore } from "@/lib/rate-limit/shared-store";
import type { Plan } from "@/lib/keys/plans";
import { newApiKeySchema, type Scope } from "@/lib/keys/schemas";
import { createApiKey } from "@/lib/keys/service";
import { now } from "@/lib/clock";
import { findPetById } from "@/lib/pets/queries/lookups";
import { petView, toPet } from "@/lib/pets/present";
import type { CoatLength, GoodWith, PetSex, PetSize, PetStatus } from "@/lib/pets/schemas/fields";
import type { Pet } from "@/lib/pets/schemas/pet";
import { sessionCookieName } from "@/lib/core/cookies";
import { createStaffSession } from "@/lib/sessions/service";
import { createStaff, type StaffRole } from "@/lib/staff/service";

export const ORIGIN = "http://localhost";

type Params = Record<string, string | string[] | undefined>;
export type RouteHandler = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  /** An API key: sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Sent as the Authorization header as it is (wins over `key`). */
  authorization?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON (with Content-Type application/json); a string or bytes as they are. */
  json?: unknown;
  body?: BodyInit;
  params?: Params;
}

export function request(path: string, options: CallOptions = {}): Request {
  const headers = new Headers(options.headers);
  if (options.authorization !== undefined) headers.set("authorization", options.authorization);
  else if (options.key !== undefined) headers.set("authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const init: RequestInit & { duplex?: "half" } = { method: options.method ?? "GET", headers, body };
  if (body instanceof ReadableStream) init.duplex = "half";
  return new Request(path.startsWith("http") ? path : `${ORIGIN}${path}`, init);
}

/** Calls a route handler as Next would: `handler(request, { params: Promise })`. */
export async function call(handler: RouteHandler | undefined, path: string, options: CallOptions = {}): Promise<Response> {
  if (!handler) throw new Error(`no handler exported for ${options.method ?? "GET"} ${path}`);
  return handler(request(path, options), { params: Promise.resolve(options.params ?? {}) });
}

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: { field: string; issue: string }[];
}

/**
 * The one assertion for error answers: the status, the code, JSON, and a body
 * that is exactly the spec's Error ({ code, message, status } + optional details).
 */
export async function expectApiError(res: Response, status: number, code: string): Promise<ErrorBody> {
  const text = await res.text();
  let body: ErrorBody;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    throw new Error(`expected a JSON error body for ${status} ${code}, got ${res.status}: ${text.slice(0, 200)}`);
  }
  expect({ status: res.status, code: body.code }, `body: ${text.slice(0, 500)}`).toEqual({ status, code });
  expect(res.headers.get("content-type")).toMatch(/^application\/json\b/);
  expect(body.status).toBe(status);
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  const keys = Object.keys(body).sort();
  expect(keys.filter((k) => k !== "details")).toEqual(["code", "message", "status"]);
  if ("details" in body) {
    expect(Array.isArray(body.details)).toBe(true);
    for (const detail of body.details!) {
      expect(Object.keys(detail).sort()).toEqual(["field", "issue"]);
      expect(typeof detail.field).toBe("string");
      expect(typeof detail.issue).toBe("string");
    }
  }
  return body;
}

/** Reads a successful JSON answer, checking the status and the Content-Type. */
export async function expectJson<T = unknown>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, `body: ${text.slice(0, 500)}`).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json\b/);
  return JSON.parse(text) as T;
}

/** The organisation tests run in unless they say otherwise: the first, as a one-shelter install has it (tests/db.ts). */
export const FIRST_ORG = 1;

export async function newKey(
  scopes: Scope[] = ["pets:read", "pets:write"],
  name = "test key",
  plan: { plan: Plan; perMinute?: number; perDay?: number } = { plan: "pro" },
  /** Whose key: an organisation's id, or null for a platform key. */
  organizationId: number | null = FIRST_ORG,
): Promise<{ key: string; id: number }> {
  const { key, summary } = await createApiKey(newApiKeySchema.parse({ name, scopes, ...plan }), organizationId === null ? null : BigInt(organizationId));
  return { key, id: summary.id };
}

/** Another organisation (a shelter in Evanston unless told where), for tests of what crosses organisations. */
export async function newOrganization(fields: { name?: string; lat?: number; lng?: number } = {}): Promise<number> {
  const name = fields.name ?? `Shelter ${Math.random().toString(36).slice(2, 8)}`;
  const row = await db().organization.create({
    data: {
      name,
      slug: name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
      city: "Evanston",
      country: "US",
      lat: fields.lat ?? 42.0451,
      lng: fields.lng ?? -87.6877,
    },
    select: { id: true },
  });
  return Number(row.id);
}

/**
 * Switches the rate limiter on for the calling test file (tests/setup.ts
 * turns it off by default). Call it at the top level of the file; the store's
 * connections are closed and the environment restored after the file.
 */
export function enableRateLimit(): void {
  vi.stubEnv("RATE_LIMIT_ENABLED", "true");
  resetEnvCache();
  afterAll(async () => {
    await setCounterStore(undefined);
    vi.unstubAllEnvs();
    resetEnvCache();
  });
}

/**
 * For a file whose webhook receivers listen on 127.0.0.1: private targets
 * are refused unless WEBHOOK_ALLOW_PRIVATE says otherwise, in tests as in
 * production, so a file that needs them says so.
 */
export function allowPrivateWebhooks(): void {
  const before = process.env.WEBHOOK_ALLOW_PRIVATE;
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  resetEnvCache();
  afterAll(() => {
    if (before === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
    else process.env.WEBHOOK_ALLOW_PRIVATE = before;
    resetEnvCache();
  });
}

export { IN_THE_SHELTER, LISTING_UNKNOWN } from "../listing-unknown";

export interface PetSeed {
  name?: string;
  categoryId?: number;
  status?: PetStatus;
  sex?: PetSex;
  size?: PetSize | null;
  birthDate?: string | null;
  breed?: string | null;
  description?: string | null;
  goodWith?: Partial<GoodWith>;
  organizationId?: number;
  externalId?: string | null;
  houseTrained?: boolean | null;
  specialNeeds?: boolean | null;
  spayedNeutered?: boolean | null;
  coatLength?: CoatLength | null;
}

/** Inserts pets in order (so ids ascend with the array) and returns them as the API shows them (to ORIGIN, today). */
export async function seedPets(pets: PetSeed[]): Promise<Pet[]> {
  const rows = await db().pet.createManyAndReturn({
    data: pets.map((p, i) => ({
      name: p.name ?? `Pet ${i}`,
      categoryId: BigInt(p.categoryId ?? 1),
      organizationId: BigInt(p.organizationId ?? FIRST_ORG),
      status: p.status ?? "available",
      sex: p.sex ?? "unknown",
      size: p.size ?? null,
      birthDate: p.birthDate ? new Date(`${p.birthDate}T00:00:00Z`) : null,
      breed: p.breed ?? null,
      description: p.description ?? null,
      goodWithChildren: p.goodWith?.children ?? null,
      goodWithDogs: p.goodWith?.dogs ?? null,
      goodWithCats: p.goodWith?.cats ?? null,
      externalId: p.externalId ?? null,
      houseTrained: p.houseTrained ?? null,
      specialNeeds: p.specialNeeds ?? null,
      spayedNeutered: p.spayedNeutered ?? null,
      coatLength: p.coatLength ?? null,
    })),
    select: { id: true },
  });
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  const view = petView(now(), ORIGIN);
  return Promise.all(ids.map(async (id) => toPet((await findPetById(id))!, view)));
}

/** Every page of `GET /v1/pets?<query>`, following rel="next" as a client does; fails on an animal seen twice. */
export async function walkPetPages(key: string, query: string, limit: number): Promise<Pet[]> {
  const { GET } = await import("@/app/v1/pets/route");
  const out: Pet[] = [];
  let url: string | undefined = `/v1/pets?${query}&limit=${limit}`;
  while (url) {
    const res: Response = await call(GET, url, { key });
    out.push(...(await expectJson<Pet[]>(res)));
    url = parseLink(res.headers.get("link")).next;
  }
  expect(new Set(out.map((p) => p.id)).size).toBe(out.length);
  return out;
}

/** RFC 8288 Link header → { rel: url }. */
export function parseLink(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const match of header.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel="?([^";,]+)"?/i.exec(match[2] ?? "")?.[1];
    if (rel) for (const r of rel.split(/\s+/)) links[r] = match[1]!;
  }
  return links;
}

/** A well-formed key (right prefix and length) that was never issued. */
export const UNKNOWN_KEY = `pk_live_${"A1b2C3d4".repeat(4)}`;

export interface StaffSession {
  staffId: number;
  email: string;
  /** The session cookie and our own Origin, as the site's pages send them (CSRF check included). */
  headers: Record<string, string>;
}

/** A staff account signed in: its browser session, as the site's pages present it (staff of the first organisation unless told otherwise). */
export async function staffSession(
  email = `staff-${Math.random().toString(36).slice(2, 10)}@petstore.test`,
  role: StaffRole = { organizationId: FIRST_ORG },
): Promise<StaffSession> {
  const staff = await createStaff({ email, password: "a long enough password" }, role);
  const { token } = await createStaffSession(BigInt(staff.id), new Date());
  return { staffId: staff.id, email: staff.email, headers: { cookie: `${sessionCookieName()}=${token}`, origin: ORIGIN } };
}

/**
 * Everything a refused application step must leave as it was: the
 * application (state, message, last change, steps), the animal (status,
 * version), its audit trail and events, and the emails queued.
 */
export async function applicationFootprint(applicationId: number, petId: number) {
  const [application, pet, audits, events, mails] = await Promise.all([
    db().adoptionApplication.findUniqueOrThrow({
      where: { id: BigInt(applicationId) },
      select: { state: true, decisionMessage: true, updatedAt: true, _count: { select: { steps: true } } },
    }),
    db().pet.findUniqueOrThrow({ where: { id: BigInt(petId) }, select: { status: true, version: true } }),
    db().petAudit.count({ where: { petId: BigInt(petId) } }),
    db().event.count(),
    db().$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'application-mail'`,
  ]);
  return { application, pet, audits, events, mails: mails[0]!.n };
}

/** Adds an animal through POST /v1/pets (the one write path), as a key (with headers of its own, if any) or a staff session's headers, and answers it (201). */
export async function createPet(
  json: Record<string, unknown>,
  as: { key: string; headers?: Record<string, string> } | { headers: Record<string, string> },
): Promise<Pet> {
  // Loaded on the first use: most files that use these helpers never create an animal through the route.
  const { POST } = await import("@/app/v1/pets/route");
  return expectJson<Pet>(await call(POST, "/v1/pets", { method: "POST", json: { categoryId: 1, ...json }, ...as }), 201);
}

/** Empties the job queue: what a test enqueues before this is not run by a worker it starts afterwards. */
export async function clearJobs(): Promise<void> {
  await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
}
