import { describe, expect, it } from "vitest";
import { POST as applyRoute } from "@/app/v1/pets/[petId]/applications/route";
import { APPLY_BUDGETS } from "@/lib/applications/service";
import { now, setClock } from "@/lib/clock";
import { SOCKET_ADDRESS_HEADER } from "@/lib/http/socket-address";
import { mintAnonymousToken } from "@/lib/sessions/anonymous";
import { ORIGIN, call, enableRateLimit, expectApiError, seedPets } from "./helpers";

// The applicants' own budgets, on top of the anonymous limits: per email and
// per address, an hour and a day. Over budget is 429 with Retry-After.

enableRateLimit();

const limit = (who: "address" | "email", window: "hour" | "day") => APPLY_BUDGETS.find((b) => b.who === who && b.window === window)!.limit;

function apply(petId: number, email: string, address: string) {
  const { token } = mintAnonymousToken(now());
  return call(applyRoute, `/v1/pets/${petId}/applications`, {
    method: "POST",
    params: { petId: String(petId) },
    headers: { cookie: `petstore_session=${token}`, origin: ORIGIN, [SOCKET_ADDRESS_HEADER]: address },
    json: { name: "Budget", email, home: "flat", message: "Please.", consent: true },
  });
}

describe("applicants' budgets", () => {
  it("one email over its hourly budget gets 429 with Retry-After until the hour ends, from any address", async () => {
    setClock(new Date("2031-05-06T10:15:00Z"));
    const pets = await seedPets(Array.from({ length: limit("email", "hour") + 1 }, () => ({})));
    for (let i = 0; i < limit("email", "hour"); i++) expect((await apply(pets[i]!.id, "eager@example.org", `203.0.113.${i + 1}`)).status).toBe(201);
    const res = await apply(pets.at(-1)!.id, "EAGER@example.org", "203.0.113.99");
    const body = await expectApiError(res, 429, "rate_limited");
    expect(body.message).toContain("this email address");
    expect(res.headers.get("retry-after")).toBe(String(45 * 60));
    // Another person from the same network is not held back by it.
    expect((await apply(pets.at(-1)!.id, "calm@example.org", "203.0.113.99")).status).toBe(201);
    setClock(undefined);
  });

  it("one address over its hourly budget gets 429, whatever the emails", async () => {
    setClock(new Date("2031-05-06T11:59:30Z"));
    const pets = await seedPets(Array.from({ length: limit("address", "hour") + 1 }, () => ({})));
    for (let i = 0; i < limit("address", "hour"); i++) expect((await apply(pets[i]!.id, `person${i}@example.org`, "198.51.100.200")).status).toBe(201);
    const res = await apply(pets.at(-1)!.id, "someone.else@example.org", "198.51.100.200");
    expect((await expectApiError(res, 429, "rate_limited")).message).toContain("this network");
    expect(res.headers.get("retry-after")).toBe("30");
    setClock(undefined);
  });
});
