import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiAwareResponse, keepApiVary, withoutRouterVary } from "@/lib/server/vary";

// /v1 answers carry the Vary the API means, not Next's router headers,
// however Next adds them (setHeader or appendHeader, before or after ours).

const NEXT = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

describe("withoutRouterVary", () => {
  it("drops Next's router headers and keeps the rest, in order", () => {
    expect(withoutRouterVary(NEXT)).toBeNull();
    expect(withoutRouterVary(`${NEXT}, Next-Url`)).toBeNull();
    expect(withoutRouterVary(`${NEXT}, Authorization, Cookie`)).toBe("Authorization, Cookie");
    expect(withoutRouterVary(["RSC", "Accept-Encoding"])).toBe("Accept-Encoding");
  });
});

describe("keepApiVary on a real response", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    // As Next does it: its router Vary first, appended; the route's own after.
    server = http.createServer((req, res) => {
      if (req.url !== "/page") keepApiVary(res);
      res.appendHeader("vary", NEXT);
      if (req.url === "/v1/set") res.setHeader("Vary", `${NEXT}, Authorization`);
      else res.appendHeader("Vary", "Authorization, Cookie");
      res.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const varyOf = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).headers.get("vary");

  it("keeps only the API's Vary", async () => {
    expect(await varyOf("/v1/pets")).toBe("Authorization, Cookie");
    expect(await varyOf("/v1/set")).toBe("Authorization");
  });

  it("leaves pages alone", async () => {
    expect(await varyOf("/page")).toBe(`${NEXT}, Authorization, Cookie`);
  });
});

describe("ApiAwareResponse (the server's responses)", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    // As Next pipes a route handler's answer: Vary appended, headers flushed, then the body.
    server = http.createServer({ ServerResponse: ApiAwareResponse }, (req, res) => {
      if (req.url !== "/page") keepApiVary(res);
      res.appendHeader("vary", NEXT);
      res.appendHeader("Vary", "Authorization, Cookie");
      res.setHeader("content-type", "application/json");
      res.flushHeaders();
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("keeps only the API's Vary, and answers whole though the headers were flushed", async () => {
    const api = await fetch(`http://127.0.0.1:${port}/v1/pets`);
    expect(api.headers.get("vary")).toBe("Authorization, Cookie");
    expect(await api.json()).toEqual({ ok: true });
    const page = await fetch(`http://127.0.0.1:${port}/page`);
    expect(page.headers.get("vary")).toBe(`${NEXT}, Authorization, Cookie`);
    expect(await page.json()).toEqual({ ok: true });
  });
});
