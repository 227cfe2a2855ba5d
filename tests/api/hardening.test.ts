import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as catchAll } from "@/app/v1/[[...path]]/route";
import { GET as listGET } from "@/app/v1/pets/route";
import { resetEnvCache } from "@/lib/env";
import { setLogDestination } from "@/lib/log";
import { call, expectApiError, expectJson, newKey } from "./helpers";

// The smaller hardening items: query keys that are Object.prototype names,
// keys of the other mode, and bounded log lines.

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

describe("query parameters named like Object.prototype members", () => {
  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])(
    "?%s=1 is one parameter like any other (ignored), not 'given more than once'",
    async (name) => {
      const { key } = await newKey(["pets:read"]);
      expect(Array.isArray(await expectJson(await call(listGET, `/v1/pets?${name}=1`, { key })))).toBe(true);
      const twice = await expectApiError(await call(listGET, `/v1/pets?${name}=1&${name}=2`, { key }), 400, "invalid_query");
      expect(twice.message).toBe(`Query parameter "${name}" is given more than once.`);
    },
  );
});

describe("API key modes", () => {
  it("a pk_test_ key is refused in live mode, and a pk_live_ key in test mode", async () => {
    vi.stubEnv("API_KEY_MODE", "test");
    resetEnvCache();
    const { key: testKey } = await newKey(["pets:read"]);
    expect(testKey).toMatch(/^pk_test_/);
    expect((await call(listGET, "/v1/pets", { key: testKey })).status).toBe(200);

    vi.stubEnv("API_KEY_MODE", "live");
    resetEnvCache();
    await expectApiError(await call(listGET, "/v1/pets", { key: testKey }), 401, "unauthorized");
    const { key: liveKey } = await newKey(["pets:read"]);
    await expectJson(await call(listGET, "/v1/pets", { key: liveKey }));

    vi.stubEnv("API_KEY_MODE", "test");
    resetEnvCache();
    await expectApiError(await call(listGET, "/v1/pets", { key: liveKey }), 401, "unauthorized");
  });
});

describe("log lines", () => {
  it("carry at most 200 characters of a path, however long the path", async () => {
    const lines: string[] = [];
    vi.stubEnv("LOG_LEVEL", "info");
    resetEnvCache();
    setLogDestination(new Writable({ write: (c: Buffer, _e, done) => (lines.push(c.toString()), done()) }));
    try {
      await call(catchAll, `/v1/${"x".repeat(16_000)}`);
    } finally {
      setLogDestination(undefined);
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.length).toBeLessThan(600);
    expect(lines.join("")).toContain(`"path":"/v1/${"x".repeat(196)}…"`);
  });
});
