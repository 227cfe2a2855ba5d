import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { addressRefusal, checkOutboundTarget, OutboundUrlError } from "@/lib/outbound/address-guard";
import { outboundAllowPrivate } from "@/lib/outbound/switch";

// One switch for every outbound connection: OUTBOUND_ALLOW_PRIVATE, with
// WEBHOOK_ALLOW_PRIVATE (its older name) still honoured.

const SECRET = "s".repeat(40);
const allow = (vars: Record<string, string>) => outboundAllowPrivate(parseEnv({ NODE_ENV: "production", SESSION_SECRET: SECRET, ...vars }));

describe("the outbound switch", () => {
  it("is off unless set, under either name", () => {
    expect(allow({})).toBe(false);
    expect(allow({ OUTBOUND_ALLOW_PRIVATE: "true" })).toBe(true);
    expect(allow({ WEBHOOK_ALLOW_PRIVATE: "true" })).toBe(true);
    expect(allow({ WEBHOOK_ALLOW_PRIVATE: "1", OUTBOUND_ALLOW_PRIVATE: "0" })).toBe(false);
    expect(allow({ WEBHOOK_ALLOW_PRIVATE: "false", OUTBOUND_ALLOW_PRIVATE: "yes" })).toBe(true);
  });

  it("refuses a host the URL parser cannot read (a numeric last label) as unreachable, not with a TypeError", async () => {
    // The listing sites' host pattern takes "members.petfinder.101"; the URL parser reads its last label as IPv4 and throws.
    await expect(checkOutboundTarget("https://members.petfinder.101/", { allowPrivate: false })).rejects.toMatchObject({ reason: "unresolvable" });
    await expect(checkOutboundTarget("https://members.petfinder.101/", { allowPrivate: false })).rejects.toBeInstanceOf(OutboundUrlError);
  });

  it("decides what the guard allows: loopback refused when off, allowed when on; link-local never", async () => {
    await expect(checkOutboundTarget("http://127.0.0.1:9/x.jpg", { allowPrivate: allow({}) })).rejects.toBeInstanceOf(OutboundUrlError);
    await expect(checkOutboundTarget("http://127.0.0.1:9/x.jpg", { allowPrivate: allow({ OUTBOUND_ALLOW_PRIVATE: "1" }) })).resolves.toMatchObject({
      address: "127.0.0.1",
    });
    await expect(checkOutboundTarget("http://127.0.0.1:9/x.jpg", { allowPrivate: allow({ WEBHOOK_ALLOW_PRIVATE: "1" }) })).resolves.toMatchObject({
      address: "127.0.0.1",
    });
    expect(addressRefusal("169.254.169.254", allow({ OUTBOUND_ALLOW_PRIVATE: "1" }))).toBe("never");
  });

  it("says what it refuses in the caller's words", async () => {
    const error = await checkOutboundTarget("https://10.0.0.5/a.jpg", { allowPrivate: false, refusal: "photos are only fetched from public addresses" }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe(
      "The address 10.0.0.5 is not a public address (loopback, private, shared or reserved): photos are only fetched from public addresses.",
    );
  });
});
