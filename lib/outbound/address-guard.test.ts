import { describe, expect, it } from "vitest";
import { addressRefusal, checkOutboundTarget as checkWebhookTarget, OutboundUrlError as WebhookUrlError } from "@/lib/outbound/address-guard";

// Where webhooks may go: in production only public addresses over https;
// with WEBHOOK_ALLOW_PRIVATE (development, tests) http and private ones too,
// but never link-local (cloud metadata), unspecified or multicast.

describe("addressRefusal", () => {
  it.each([
    // Always refused, whatever the setting.
    ["169.254.169.254", "never", "never"],
    ["169.254.0.1", "never", "never"],
    ["fe80::1", "never", "never"],
    ["0.0.0.0", "never", "never"],
    ["0.1.2.3", "never", "never"],
    ["::", "never", "never"],
    ["224.0.0.1", "never", "never"],
    ["ff02::1", "never", "never"],
    ["255.255.255.255", "never", "never"],
    ["::ffff:169.254.169.254", "never", "never"],
    ["64:ff9b::a9fe:a9fe", "never", "never"], // NAT64 of 169.254.169.254
    // Translation and tunnel ranges that reach IPv4 addresses we cannot judge: never.
    ["64:ff9b:1::a00:1", "never", "never"], // local-use NAT64 (RFC 8215): the embedded IPv4's place depends on the operator's prefix
    ["64:ff9b:1:ffff:ff00:808:808:0", "never", "never"],
    ["2002:a9fe:a9fe::1", "never", "never"], // 6to4 of 169.254.169.254
    ["2002:808:808::1", "never", "never"], // 6to4 of a public address: still a relay into IPv4
    ["2002:7f00:1::1", "never", "never"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "never", "never"], // Teredo
    // Cloud metadata services outside link-local: never, though their ranges are only "not public".
    ["fd00:ec2::254", "never", "never"], // AWS IMDS over IPv6
    ["FD00:EC2:0:0:0:0:0:254", "never", "never"],
    ["fd00:ec2::253", "never", "never"], // AWS's VPC resolver
    ["100.100.100.200", "never", "never"], // Alibaba Cloud
    ["::ffff:100.100.100.200", "never", "never"],
    ["192.0.0.192", "never", "never"], // Oracle Cloud
    ["fd00:ec2::1", "not_public", null], // the rest of that unique-local range is only private
    // Not public: refused in production, allowed in development.
    ["127.0.0.1", "not_public", null],
    ["127.8.9.10", "not_public", null],
    ["::1", "not_public", null],
    ["10.1.2.3", "not_public", null],
    ["172.16.0.1", "not_public", null],
    ["172.31.255.255", "not_public", null],
    ["192.168.1.1", "not_public", null],
    ["100.64.0.1", "not_public", null],
    ["100.127.255.254", "not_public", null],
    ["fd12:3456::1", "not_public", null],
    ["fc00::1", "not_public", null],
    ["192.0.2.10", "not_public", null],
    ["198.18.0.1", "not_public", null],
    ["240.0.0.1", "not_public", null],
    ["2001:db8::1", "not_public", null],
    ["::ffff:127.0.0.1", "not_public", null],
    ["::ffff:7f00:1", "not_public", null],
    ["::ffff:10.0.0.1", "not_public", null],
    // The well-known NAT64 prefix (64:ff9b::/96) is judged by the IPv4 address it embeds, as that address would be.
    ["64:ff9b::a00:1", "not_public", null], // 10.0.0.1
    ["64:ff9b::7f00:1", "not_public", null], // 127.0.0.1
    ["64:ff9b::c0a8:101", "not_public", null], // 192.168.1.1
    // Public.
    ["93.184.215.14", null, null],
    ["8.8.8.8", null, null],
    ["172.32.0.1", null, null],
    ["100.128.0.1", null, null],
    ["2606:4700:4700::1111", null, null],
    ["::ffff:8.8.8.8", null, null],
    ["64:ff9b::808:808", null, null], // NAT64 of 8.8.8.8: how an IPv6-only server reaches a public IPv4 receiver
  ])("%s: %s in production, %s with WEBHOOK_ALLOW_PRIVATE", (address, production, development) => {
    expect(addressRefusal(address, false)).toBe(production);
    expect(addressRefusal(address, true)).toBe(development);
  });
});

type GuardResolve = (host: string) => Promise<{ address: string; family: number }[]>;

const resolveTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

async function refusal(url: string, allowPrivate: boolean, resolve = resolveTo("93.184.215.14")) {
  try {
    await checkWebhookTarget(url, { allowPrivate, resolve });
    return null;
  } catch (error) {
    if (error instanceof WebhookUrlError) return error.reason;
    throw error;
  }
}

describe("checkWebhookTarget", () => {
  it("production: https to a public host only", async () => {
    expect(await refusal("https://partner.example/hook", false)).toBeNull();
    expect(await refusal("http://partner.example/hook", false)).toBe("scheme");
    expect(await refusal("https://93.184.215.14:8443/hook", false)).toBeNull();
    expect(await refusal("https://127.0.0.1/hook", false)).toBe("not_public");
    expect(await refusal("https://[::1]/hook", false)).toBe("not_public");
    expect(await refusal("https://[::ffff:127.0.0.1]/hook", false)).toBe("not_public");
    expect(await refusal("https://10.0.0.5:5432/", false)).toBe("not_public");
    expect(await refusal("https://169.254.169.254/latest/meta-data", false)).toBe("never");
    expect(await refusal("https://[fe80::1]/", false)).toBe("never");
    expect(await refusal("https://0.0.0.0/", false)).toBe("never");
  });

  it("a name is judged by every address it resolves to: one private address is enough to refuse", async () => {
    expect(await refusal("https://internal.example/", false, resolveTo("10.0.0.7"))).toBe("not_public");
    expect(await refusal("https://split.example/", false, resolveTo("93.184.215.14", "192.168.0.3"))).toBe("not_public");
    expect(await refusal("https://metadata.example/", true, resolveTo("169.254.169.254"))).toBe("never");
    const failing = async () => {
      throw Object.assign(new Error("nope"), { code: "ENOTFOUND" });
    };
    expect(await refusal("https://nowhere.example/", false, failing)).toBe("unresolvable");
    expect(await refusal("https://empty.example/", false, resolveTo())).toBe("unresolvable");
  });

  it("a refusal says only that the address is not public, never what a name resolves to (that would map our network)", async () => {
    const cases: [string, boolean][] = [
      ["10.0.0.5", false],
      ["fd00::5", false],
      ["169.254.169.254", true],
      ["64:ff9b:1::a00:5", true],
      ["2002:a00:5::1", false],
    ];
    for (const [resolved, allowPrivate] of cases) {
      const error = await checkWebhookTarget("https://db.internal/hook", { allowPrivate, resolve: resolveTo("93.184.215.14", resolved) }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, resolved).toBeInstanceOf(WebhookUrlError);
      expect((error as Error).message).toBe('The host "db.internal" does not resolve to a public address: webhooks are only sent to public addresses.');
    }
  });

  it("a name that does not resolve gets the very message of one that resolves inside: whether an internal name exists is the log's to say", async () => {
    const messageFor = (resolve: GuardResolve) =>
      checkWebhookTarget("https://db.internal/hook", { allowPrivate: false, resolve }).then(
        () => "accepted",
        (e: WebhookUrlError) => e.message,
      );
    const notFound = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND db.internal"), { code: "ENOTFOUND" });
    };
    const messages = new Set([
      await messageFor(notFound),
      await messageFor(resolveTo()),
      await messageFor(resolveTo("10.0.0.5")),
      await messageFor(resolveTo("169.254.169.254")),
      await messageFor(resolveTo("fd00:ec2::254")),
    ]);
    expect([...messages]).toEqual(['The host "db.internal" does not resolve to a public address: webhooks are only sent to public addresses.']);
    // The difference stays with the error, for the operators' log.
    const error = (await checkWebhookTarget("https://db.internal/hook", { allowPrivate: false, resolve: notFound }).catch(
      (e: unknown) => e,
    )) as WebhookUrlError;
    expect([error.reason, error.detail]).toEqual(["unresolvable", "does not resolve (ENOTFOUND)"]);
    const inside = (await checkWebhookTarget("https://db.internal/hook", { allowPrivate: false, resolve: resolveTo("10.0.0.5") }).catch(
      (e: unknown) => e,
    )) as WebhookUrlError;
    expect([inside.reason, inside.detail]).toEqual(["not_public", "resolves to 10.0.0.5 (10.0.0.5: not_public)"]);
  });

  it("returns the checked address, to connect to it and nothing else", async () => {
    const target = await checkWebhookTarget("https://partner.example/hook", { allowPrivate: false, resolve: resolveTo("2606:4700:4700::1111") });
    expect(target).toMatchObject({ address: "2606:4700:4700::1111", family: 6 });
    expect(target.url.hostname).toBe("partner.example");
  });

  it("development (WEBHOOK_ALLOW_PRIVATE): http and private addresses, still never link-local or unspecified", async () => {
    expect(await refusal("http://127.0.0.1:4000/hook", true)).toBeNull();
    expect(await refusal("http://localhost:4000/hook", true, resolveTo("127.0.0.1", "::1"))).toBeNull();
    expect(await refusal("http://10.0.0.5/hook", true)).toBeNull();
    expect(await refusal("http://169.254.169.254/", true)).toBe("never");
    expect(await refusal("http://[fe80::1]/", true)).toBe("never");
    expect(await refusal("http://[::]/", true)).toBe("never");
    expect(await refusal("http://0.0.0.0:3000/", true)).toBe("never");
  });
});
