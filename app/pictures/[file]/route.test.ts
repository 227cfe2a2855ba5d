import { describe, expect, it } from "vitest";
import { GET } from "@/app/pictures/[file]/route";
import { drawAnimal } from "@/lib/pictures/draw";

function get(file: string, headers: Record<string, string> = {}): Promise<Response> {
  return GET(new Request(`http://localhost/pictures/${file}`, { headers }), { params: Promise.resolve({ file }) });
}

describe("GET /pictures/{kind}-{variant}.svg", () => {
  it("serves the drawing as a cacheable SVG that can run nothing", async () => {
    const response = await get("cat-3.svg");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(await response.text()).toBe(drawAnimal("cat", 3));
  });

  it("gives each drawing its own ETag, the same on every request", async () => {
    const a = (await get("cat-3.svg")).headers.get("etag");
    expect((await get("cat-3.svg")).headers.get("etag")).toBe(a);
    expect((await get("cat-4.svg")).headers.get("etag")).not.toBe(a);
    expect((await get("dog-3.svg")).headers.get("etag")).not.toBe(a);
  });

  it("answers 304 without the drawing when the client has it", async () => {
    const etag = (await get("cat-3.svg")).headers.get("etag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await get("cat-3.svg", { "If-None-Match": ifNoneMatch });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(response.headers.get("etag")).toBe(etag);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(await response.text()).toBe("");
    }
    expect((await get("cat-3.svg", { "If-None-Match": '"other"' })).status).toBe(200);
  });

  it("serves every kind and the whole range of variants", async () => {
    for (const file of ["dog-0.svg", "small-mammal-104.svg", "paw-52.svg", "reptile-7.svg", "bird-99.svg", "rabbit-1.svg"]) {
      expect((await get(file)).status, file).toBe(200);
    }
  });

  it("answers 404 in plain text for anything else", async () => {
    for (const file of [
      "cat-999.svg",
      "cat-105.svg",
      "lion-1.svg",
      "../x.svg",
      "cat.svg",
      "cat-03.svg",
      "cat-3.png",
      "cat-3.svg.svg",
      "Cat-3.svg",
      "cat--3.svg",
      "-3.svg",
      "constructor-1.svg",
    ]) {
      const response = await get(file);
      expect(response.status, file).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});
