import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as inboxRoute, POST as applyRoute } from "@/app/v1/organizations/[organizationId]/foster-applications/route";
import { POST as approveRoute } from "@/app/v1/organizations/[organizationId]/foster-applications/[personId]/approve/route";
import { POST as declineRoute } from "@/app/v1/organizations/[organizationId]/foster-applications/[personId]/decline/route";
import { GET as viewRoute } from "@/app/v1/foster-links/[token]/route";
import { APPLY_BUDGETS } from "@/lib/applications/service";
import { now, setClock } from "@/lib/clock";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import { db } from "@/lib/db";
import type { FosterApplicant } from "@/lib/fosters/applications-schemas";
import type { FosterView } from "@/lib/fosters/links-schemas";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { startBackgroundWork, type BackgroundWork } from "@/lib/worker/runner";
import { mailingInstance } from "@/tests/mail-server";
import {
  FIRST_ORG,
  ORIGIN,
  call,
  enableRateLimit,
  expectApiError,
  expectJson,
  newKey,
  newOrganization,
  parseLink,
  staffSession,
  type StaffSession,
} from "./helpers";

// The public application to foster, from a shelter's page: it makes the
// person an applicant (a new person, or one of the organisation's people
// with no foster role), tells anyone already a foster kindly by email while
// changing nothing, and answers the same in every case; the adoption
// applications' budgets and honeypot hold it; staff approve (a welcome with
// the private link) or decline (a message; the person inactive).

enableRateLimit();

const mail = mailingInstance();
let work: BackgroundWork | undefined;
let staff: StaffSession;

beforeAll(async () => {
  staff = await staffSession();
  work = startBackgroundWork();
});

afterAll(async () => {
  await work?.stop();
});

let n = 0;
const address = () => `203.0.113.${(++n % 250) + 1}`;

function apply(json: Record<string, unknown>, from = address(), organizationId = FIRST_ORG) {
  const { token } = mintAnonymousToken(now());
  return call(applyRoute, `/v1/organizations/${organizationId}/foster-applications`, {
    method: "POST",
    params: { organizationId: String(organizationId) },
    headers: { cookie: `petstore_session=${token}`, origin: ORIGIN, [SOCKET_ADDRESS_HEADER]: from },
    json,
  });
}

const application = (email: string, extra: Record<string, unknown> = {}) => ({
  name: "Robin Foster",
  email,
  phone: "+1 847 555 0100",
  address: { street: "1 Elm St", city: "Evanston", postcode: "60201", country: "US" },
  species: ["cat"],
  capacity: 2,
  message: "I work from home and have a spare room.",
  consent: true,
  ...extra,
});

const personOf = (email: string) => db().person.findFirstOrThrow({ where: { organizationId: BigInt(FIRST_ORG), email } });

function inbox(who: { headers?: Record<string, string>; key?: string } = { headers: staff.headers }) {
  return call(inboxRoute, `/v1/organizations/${FIRST_ORG}/foster-applications`, { ...who, params: { organizationId: String(FIRST_ORG) } });
}

const decide = (
  route: typeof approveRoute,
  step: string,
  personId: number,
  json?: unknown,
  who: { headers?: Record<string, string>; key?: string } = { headers: staff.headers },
) =>
  call(route, `/v1/organizations/${FIRST_ORG}/foster-applications/${personId}/${step}`, {
    method: "POST",
    ...who,
    params: { organizationId: String(FIRST_ORG), personId: String(personId) },
    json,
  });

describe("applying", () => {
  it("creates the person as a foster applicant, placed at the ZIP code's centre, and confirms by email in their language", async () => {
    const body = await expectJson<{ received: boolean; message: string }>(await apply(application("robin@example.org", { locale: "es" })), 202);
    expect(body.received).toBe(true);
    const person = await personOf("robin@example.org");
    expect(person).toMatchObject({
      name: "Robin Foster",
      fosterStatus: "applicant",
      fosterCapacity: 2,
      fosterSpecies: ["cat"],
      city: "Evanston",
      locale: "es",
    });
    expect(person.lat).toBeCloseTo(42.05, 1);
    const confirmation = await mail.waitFor("robin@example.org", /Hemos recibido su solicitud de acogida/);
    expect(confirmation.text).not.toContain("Robin");
    const listed = await expectJson<FosterApplicant[]>(await inbox());
    expect(listed.find((a) => a.id === Number(person.id))).toMatchObject({ message: "I work from home and have a spare room.", status: "applicant" });
  });

  it("one of the organisation's people with no foster role becomes an applicant; staff's record of them is kept", async () => {
    await db().person.create({ data: { organizationId: BigInt(FIRST_ORG), name: "Kept Name", email: "adopter@example.org", phone: "+1 312 555 0199" } });
    await expectJson(await apply(application("ADOPTER@example.org")), 202);
    const person = await personOf("adopter@example.org");
    expect(person).toMatchObject({ name: "Kept Name", phone: "+1 312 555 0199", fosterStatus: "applicant", city: "Evanston" });
    await mail.waitFor("adopter@example.org", /We received your application to foster/);
  });

  it("an active foster is told kindly by email and nothing changes; the answer is the same as for a new applicant", async () => {
    await db().person.create({
      data: {
        organizationId: BigInt(FIRST_ORG),
        name: "Active",
        email: "active@example.org",
        fosterStatus: "active",
        fosterCapacity: 3,
        fosterSpecies: ["dog"],
      },
    });
    const fresh = await expectJson(await apply(application("newcomer@example.org")), 202);
    const known = await expectJson(await apply(application("active@example.org")), 202);
    expect(known).toEqual(fresh);
    expect(await personOf("active@example.org")).toMatchObject({ fosterStatus: "active", fosterCapacity: 3, fosterSpecies: ["dog"] });
    expect(await db().fosterApplication.count({ where: { person: { email: "active@example.org" } } })).toBe(0);
    const kind = await mail.waitFor("active@example.org", /Your application to foster/);
    expect(kind.text).toContain("already has you on its list of fosters");
  });

  it("bad input is a 400 naming the field; an unknown organisation 404; an unknown US ZIP code 400 unknown_location", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "" }, "name"],
      [{ email: "not an email" }, "email"],
      [{ capacity: 0 }, "capacity"],
      [{ species: ["horse"] }, "species.0"],
      [{ address: { city: "Evanston" } }, "address.country"],
      [{ consent: false }, "consent"],
    ];
    for (const [extra, field] of cases) {
      const body = await expectApiError(await apply(application("bad@example.org", extra)), 400, "invalid_body");
      expect(body.details?.map((d) => d.field)).toContain(field);
    }
    await expectApiError(await apply(application("x@example.org"), address(), 987_654), 404, "not_found");
    const zip = await expectApiError(
      await apply(application("zip@example.org", { address: { city: "Nowhere", postcode: "00000", country: "US" } })),
      400,
      "unknown_location",
    );
    expect(zip.details?.[0]?.field).toBe("address.postcode");
  });

  it("bots: the honeypot filled is refused and nothing is stored", async () => {
    await expectApiError(await apply(application("bot@example.org", { website: "https://spam.example" })), 400, "invalid_body");
    expect(await db().person.count({ where: { email: "bot@example.org" } })).toBe(0);
  });

  it("the adoption applications' budgets: one email over its hourly budget gets 429 with Retry-After; one network too", async () => {
    const perEmail = APPLY_BUDGETS.find((b) => b.who === "email" && b.window === "hour")!.limit;
    const perAddress = APPLY_BUDGETS.find((b) => b.who === "address" && b.window === "hour")!.limit;
    setClock(new Date("2031-06-01T10:15:00Z"));
    try {
      for (let i = 0; i < perEmail; i++) await expectJson(await apply(application("eager@example.org")), 202);
      const res = await apply(application("Eager@example.org"));
      expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this email address");
      expect(res.headers.get("retry-after")).toBe(String(45 * 60));
      for (let i = 0; i < perAddress; i++) await expectJson(await apply(application(`neighbour${i}@example.org`), "198.51.100.20"), 202);
      expect((await expectApiError(await apply(application("one.more@example.org"), "198.51.100.20"), 429, "rate_limited")).message).toContain("this network");
    } finally {
      setClock(undefined);
    }
  });

  it("the inbox pages as every list does: newest first, limit, the opaque cursor of the Link header both ways", async () => {
    const org = await newOrganization();
    const orgStaff = await staffSession(undefined, { organizationId: org });
    for (const i of [1, 2, 3]) await expectJson(await apply(application(`paging-${i}@example.org`), address(), org), 202);
    const page = (query: string) =>
      call(inboxRoute, `/v1/organizations/${org}/foster-applications${query}`, { headers: orgStaff.headers, params: { organizationId: String(org) } });
    const first = await page("?limit=2");
    expect((await expectJson<FosterApplicant[]>(first)).map((a) => a.email)).toEqual(["paging-3@example.org", "paging-2@example.org"]);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    const next = parseLink(first.headers.get("link")).next!;
    expect(parseLink(first.headers.get("link")).prev).toBeUndefined();
    const second = await page(new URL(next).search);
    expect((await expectJson<FosterApplicant[]>(second)).map((a) => a.email)).toEqual(["paging-1@example.org"]);
    const links = parseLink(second.headers.get("link"));
    expect(links.next).toBeUndefined();
    const back = await page(new URL(links.prev!).search);
    expect((await expectJson<FosterApplicant[]>(back)).map((a) => a.email)).toEqual(["paging-3@example.org", "paging-2@example.org"]);
    await expectApiError(await page("?cursor=not-a-cursor!"), 400, "invalid_cursor");
  });

  it("the inbox is personal data: a key without people:read and another organisation's staff are refused", async () => {
    const { key } = await newKey(["pets:read", "applications:write"]);
    await expectApiError(await inbox({ key }), 403, "forbidden");
    const other = await staffSession(undefined, { organizationId: await newOrganization() });
    await expectApiError(await inbox({ headers: other.headers }), 403, "forbidden");
  });
});

describe("staff decide", () => {
  it("approve: an active foster, welcomed by email with a working private link", async () => {
    await expectJson(await apply(application("welcome@example.org")), 202);
    const person = await personOf("welcome@example.org");
    const approved = await expectJson<FosterApplicant>(await decide(approveRoute, "approve", Number(person.id)));
    expect(approved).toMatchObject({ status: "active", decision: "approved" });
    const welcome = await mail.waitFor("welcome@example.org", /Welcome: you are now a foster/);
    const token = /\/fosters\/([A-Za-z0-9_-]{43})/.exec(welcome.text ?? "")![1]!;
    const page = await expectJson<FosterView>(await call(viewRoute, `/v1/foster-links/${token}`, { params: { token } }));
    expect(page).toMatchObject({ name: "Robin Foster", capacity: 2, species: ["cat"], animals: [] });
    // Decided once: a second step is refused.
    await expectApiError(await decide(declineRoute, "decline", Number(person.id), {}), 409, "invalid_transition");
  });

  it("a decision answers with the applicant, so it needs people:read as well as people:write; undecided after a refusal", async () => {
    await expectJson(await apply(application("writer-only@example.org")), 202);
    const person = await personOf("writer-only@example.org");
    const { key: writerOnly } = await newKey(["pets:read", "people:write"]);
    await expectApiError(await decide(approveRoute, "approve", Number(person.id), undefined, { key: writerOnly }), 403, "forbidden");
    await expectApiError(await decide(declineRoute, "decline", Number(person.id), {}, { key: writerOnly }), 403, "forbidden");
    expect((await personOf("writer-only@example.org")).fosterStatus).toBe("applicant");
    const { key: both } = await newKey(["pets:read", "people:read", "people:write"]);
    expect(await expectJson<FosterApplicant>(await decide(approveRoute, "approve", Number(person.id), undefined, { key: both }))).toMatchObject({
      status: "active",
    });
  });

  it("decline: the person becomes inactive, is emailed the message; what they sent stays for staff", async () => {
    await expectJson(await apply(application("declined@example.org")), 202);
    const person = await personOf("declined@example.org");
    const declined = await expectJson<FosterApplicant>(
      await decide(declineRoute, "decline", Number(person.id), { message: "We only place cats with experienced fosters just now." }),
    );
    expect(declined).toMatchObject({ status: "inactive", decision: "declined", message: "I work from home and have a spare room." });
    const email = await mail.waitFor("declined@example.org", /Your application to foster/);
    expect(email.text).toContain("Message from the shelter: We only place cats with experienced fosters just now.");
    expect((await expectJson<FosterApplicant[]>(await inbox())).some((a) => a.id === Number(person.id))).toBe(false);
    const tooLong = await decide(declineRoute, "decline", Number(person.id), { message: "x".repeat(1001) });
    expect((await expectApiError(tooLong, 400, "invalid_body")).details?.[0]?.field).toBe("message");
  });
});
