import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { SOCKET_ADDRESS_HEADER as SOCKET } from "@/lib/core/socket-address";
import { configurableEnv } from "@/tests/env";
import { addressRateKey, clientAddressOf, clientOriginOf, clientUrl, normalizeAddress, ownOrigins } from "@/lib/core/client";

// The site is reached by many names and through proxies: the client's
// address and origin come from the socket and the Host it sent, and from
// X-Forwarded-* only when a trusted proxy of ours is the socket's peer.

function headers(values: Record<string, string>) {
  const h = new Headers(values);
  return { get: (name: string) => h.get(name) };
}

const configure = configurableEnv();

describe("normalizeAddress", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    [" 203.0.113.9 ", "203.0.113.9"],
    ["203.0.113.9:5123", "203.0.113.9"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["2001:DB8::1", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
  ])("%j is %j", (raw, expected) => {
    expect(normalizeAddress(raw)).toBe(expected);
  });

  it.each(["", "unknown", "evil.example", "1.2.3", "999.1.1.1", "x".repeat(250), "1.2.3.4, 5.6.7.8", "<script>"])("refuses %j", (raw) => {
    expect(normalizeAddress(raw)).toBeNull();
  });
});

describe("clientAddressOf", () => {
  it("is the socket's peer when TRUST_PROXY is off, whatever X-Forwarded-For says", () => {
    configure({ TRUST_PROXY: undefined });
    expect(clientAddressOf(headers({ [SOCKET]: "198.51.100.7", "x-forwarded-for": "10.0.0.1" }))).toBe("198.51.100.7");
  });

  it("behind a trusted proxy, is the rightmost X-Forwarded-For entry that is not a trusted proxy (the left is the client's own claim)", () => {
    configure({ TRUST_PROXY: "true" });
    // The client claimed 1.1.1.1; nginx appended the real peer 198.51.100.7.
    expect(clientAddressOf(headers({ [SOCKET]: "127.0.0.1", "x-forwarded-for": "1.1.1.1, 198.51.100.7" }))).toBe("198.51.100.7");
  });

  it("walks past every trusted hop of a proxy chain", () => {
    configure({ TRUST_PROXY: "true", TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" });
    const h = headers({ [SOCKET]: "127.0.0.1", "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.1.2.3, 10.0.0.9" });
    expect(clientAddressOf(h)).toBe("198.51.100.7");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy, even with TRUST_PROXY on", () => {
    configure({ TRUST_PROXY: "true", TRUSTED_PROXIES: "10.0.0.0/8" });
    expect(clientAddressOf(headers({ [SOCKET]: "198.51.100.7", "x-forwarded-for": "1.1.1.1" }))).toBe("198.51.100.7");
  });

  it("stops at garbage where a proxy should have written an address, instead of believing it", () => {
    configure({ TRUST_PROXY: "true" });
    const long = "9".repeat(250);
    expect(clientAddressOf(headers({ [SOCKET]: "127.0.0.1", "x-forwarded-for": `1.1.1.1, ${long}` }))).toBe("127.0.0.1");
    expect(clientAddressOf(headers({ [SOCKET]: "127.0.0.1", "x-forwarded-for": "not-an-ip" }))).toBe("127.0.0.1");
  });

  it("is the proxy itself when X-Forwarded-For is missing or names only trusted hops", () => {
    configure({ TRUST_PROXY: "true" });
    expect(clientAddressOf(headers({ [SOCKET]: "127.0.0.1" }))).toBe("127.0.0.1");
    expect(clientAddressOf(headers({ [SOCKET]: "::1", "x-forwarded-for": "127.0.0.2" }))).toBe("127.0.0.2");
  });
});

describe("addressRateKey", () => {
  it("keeps IPv4 as it is", () => {
    expect(addressRateKey("203.0.113.9")).toBe("ip:203.0.113.9");
  });

  it("groups IPv6 by /64: one subscriber's addresses share one budget", () => {
    const a = addressRateKey("2001:db8:1:2::1");
    expect(a).toBe("ip6:2001:db8:1:2::/64");
    expect(addressRateKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe(a);
    expect(addressRateKey("2001:db8:1:3::1")).not.toBe(a);
    expect(addressRateKey("::1")).toBe("ip6:0:0:0:0::/64");
  });

  it("is short and bounded whatever the input", () => {
    for (const input of ["x".repeat(5000), "unknown", "1:2:3:4:5:6:7:8", "::ffff:1.2.3.4"]) {
      expect(addressRateKey(input).length).toBeLessThanOrEqual(40);
    }
  });
});

describe("clientOriginOf", () => {
  const FALLBACK = "http://localhost:3000/v1/pets";

  it("is the scheme and Host the client used, not the framework's host", () => {
    configure({ TRUST_PROXY: undefined });
    expect(clientOriginOf(headers({ host: "127.0.0.1:3000" }), FALLBACK)).toBe("http://127.0.0.1:3000");
    expect(clientOriginOf(headers({ host: "petstore.internal:8080" }), FALLBACK)).toBe("http://petstore.internal:8080");
    expect(clientOriginOf(headers({ host: "[::1]:3000" }), FALLBACK)).toBe("http://[::1]:3000");
    expect(clientOriginOf(headers({ host: "Shelter.Example" }), FALLBACK)).toBe("http://shelter.example");
  });

  it("ignores X-Forwarded-Proto/-Host unless a trusted proxy sent them", () => {
    configure({ TRUST_PROXY: undefined });
    const h = headers({ host: "127.0.0.1:3000", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example", [SOCKET]: "127.0.0.1" });
    expect(clientOriginOf(h, FALLBACK)).toBe("http://127.0.0.1:3000");
    configure({ TRUST_PROXY: "true", TRUSTED_PROXIES: "10.0.0.0/8" });
    expect(clientOriginOf(h, FALLBACK)).toBe("http://127.0.0.1:3000");
  });

  it("behind a trusted proxy, is what the proxy says the client used (its first value)", () => {
    configure({ TRUST_PROXY: "true" });
    const h = headers({ host: "127.0.0.1:3001", "x-forwarded-proto": "https", "x-forwarded-host": "shelter.example, inner:1", [SOCKET]: "127.0.0.1" });
    expect(clientOriginOf(h, FALLBACK)).toBe("https://shelter.example");
    // Default ports vanish, as in a browser's Origin header.
    const withPort = headers({ host: "x", "x-forwarded-proto": "https", "x-forwarded-host": "shelter.example:443", [SOCKET]: "127.0.0.1" });
    expect(clientOriginOf(withPort, FALLBACK)).toBe("https://shelter.example");
  });

  it("falls back to the request's URL for a missing or malformed Host", () => {
    configure({ TRUST_PROXY: undefined });
    expect(clientOriginOf(headers({}), FALLBACK)).toBe("http://localhost:3000");
    for (const host of ["evil.example/path", "a b", "x:99999999", "user@host", "<x>"]) {
      expect(clientOriginOf(headers({ host }), FALLBACK)).toBe("http://localhost:3000");
    }
  });
});

describe("ownOrigins and clientUrl", () => {
  const req = (host: string) => new Request("http://localhost:3000/v1/pets?limit=2", { headers: { host } });

  it("are the addressed origin, PUBLIC_BASE_URL's and ALLOWED_ORIGINS", () => {
    configure({ PUBLIC_BASE_URL: "https://api.shelter.example/v1", ALLOWED_ORIGINS: "https://admin.shelter.example, http://10.0.0.5:3000/" });
    expect([...ownOrigins(req("127.0.0.1:3000"))].sort()).toEqual(
      ["http://10.0.0.5:3000", "http://127.0.0.1:3000", "https://admin.shelter.example", "https://api.shelter.example"].sort(),
    );
  });

  it("rebuilds the URL on the addressed origin, keeping path and query", () => {
    configure({});
    expect(clientUrl(req("192.0.2.2:3000")).toString()).toBe("http://192.0.2.2:3000/v1/pets?limit=2");
  });

  it("configuration is checked at boot, naming the variable", () => {
    expect(() => parseEnv({ TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/TRUSTED_PROXIES/);
    expect(() => parseEnv({ TRUSTED_PROXIES: "nginx" })).toThrow(/TRUSTED_PROXIES/);
    expect(() => parseEnv({ ALLOWED_ORIGINS: "ftp://x" })).toThrow(/ALLOWED_ORIGINS/);
    expect(parseEnv({ TRUSTED_PROXIES: "10.0.0.0/8, ::1, fd00::/8" }).TRUSTED_PROXIES).toBe("10.0.0.0/8, ::1, fd00::/8");
  });
});
