import { expect, test } from "@playwright/test";

// Every page request goes through proxy.ts, the router's prefetches
// (Next-Router-Prefetch) included: each gets the security headers, and the
// headers only our own code may set (x-petstore-*, x-nonce) never reach a
// render from the client. Real HTTP against the production build: proxy.ts's
// matcher decides in the built server, which no unit test sees. Before, an
// English page prefetched skipped proxy.ts: no security headers, and a
// client's x-petstore-origin made the page's canonical link, x-petstore-locale
// its language.

const FORGED = {
  "x-petstore-origin": "https://forged.example",
  "x-petstore-pathname": "/forged-path",
  "x-petstore-locale": "es",
  "x-nonce": "Zm9yZ2VkLW5vbmNl",
};

function expectSecurityHeaders(h: Record<string, string>, what: string) {
  expect(h["content-security-policy"], what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(h["content-security-policy"], what).toContain("frame-ancestors 'none'");
  expect(h["content-security-policy"], what).not.toContain(FORGED["x-nonce"]);
  expect(h["x-content-type-options"], what).toBe("nosniff");
  expect(h["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(h["x-frame-options"], what).toBe("DENY");
  expect(h["permissions-policy"], what).toBe("camera=(), microphone=(), geolocation=(self)");
}

for (const path of ["/", "/shelters", "/es", "/es/shelters"]) {
  test(`${path}: prefetched or not, the security headers, and none of a client's internal headers reach the page`, async ({ request }) => {
    const spanish = path.startsWith("/es");
    for (const [kind, headers] of [
      ["a visit", {}],
      ["a prefetch", { "Next-Router-Prefetch": "1" }],
      ["the router's prefetch", { "Next-Router-Prefetch": "1", RSC: "1" }],
    ] as const) {
      const what = `${path}, ${kind}`;
      // The router's own request carries a cache-busting _rsc parameter; Next sends one without it there first (307).
      const res = await request.get(path, { headers: { ...headers, ...FORGED } });
      expect(res.status(), what).toBe(200);
      expectSecurityHeaders(res.headers(), what);
      const body = await res.text();
      for (const forged of ["forged.example", "/forged-path", FORGED["x-nonce"]]) expect(body, `${what}: ${forged}`).not.toContain(forged);
      if (kind !== "the router's prefetch") {
        // The page's language is its path's, not a header's.
        expect(body, what).toContain(`<html lang="${spanish ? "es" : "en"}"`);
        expect(body, what).toMatch(new RegExp(`<link rel="canonical" href="http://127\\.0\\.0\\.1:\\d+${path === "/" ? "/?" : path}"`));
      }
    }
  });
}

test("a prefetch of the other language's page does not change the language a visitor chose", async ({ request }) => {
  const res = await request.get("/es/shelters", { headers: { "Next-Router-Prefetch": "1", RSC: "1", Cookie: "petstore_locale=en" } });
  expect(res.status()).toBe(200);
  expect(res.headers()["set-cookie"] ?? "").not.toContain("locale");
});
