import { describe, expect, it } from "vitest";
import { checkRequest } from "@/lib/server/gate";

// What the server answers itself, before Next, so that every /v1 answer is
// the JSON Error shape (the fuzz suite, e2e/api/fuzz.spec.ts, checks the
// same on the wire).

function req(url: string, method = "GET", headers: Record<string, string> = {}) {
  const rawHeaders = Object.entries({ host: "x", ...headers }).flat();
  return { url, method, rawHeaders, headers: { host: "x", ...headers } };
}

const outcome = (url: string, method?: string, headers?: Record<string, string>) => {
  const refusal = checkRequest(req(url, method, headers));
  return refusal ? { status: refusal.error.status, code: refusal.error.code, api: refusal.api } : null;
};

describe("checkRequest under /v1", () => {
  it.each([
    "/v1/pets",
    "/v1/pets?limit=5&status=sold",
    "/v1/pets/12",
    "/v1",
    "/v1/openapi.json",
    "/v1/pets?q=%E2%9C%93",
    "/v1/pets/Zo%C3%AB",
    "/v1/pets/a:b@c!$&'()*+,;=",
    "http://example.com/v1/pets",
  ])("passes %j on to the routes", (url) => {
    expect(outcome(url)).toBeNull();
  });

  it.each([
    ["/v1/pets/%E0%A4%A", "a truncated UTF-8 sequence"],
    ["/v1/pets/abc%zz", "% not followed by hex"],
    ["/v1/pets/%", "a lone %"],
    ["/v1/pets/%C0%AF", "an overlong encoding"],
    ["/v1//pets", "an empty segment"],
    ["/v1/pets/../keys", "a dot-dot segment"],
    ["/v1/./pets", "a dot segment"],
    ["/v1/pets/%2e%2E", "an encoded dot-dot"],
    ["/v1/pets/1%2F2", "an encoded slash"],
    ["/v1/pets/1%5C2", "an encoded backslash"],
    ["/v1/pets/%00", "an encoded NUL"],
    ["/v1/pets/a b", "a raw space"],
    ["/v1/pets/<script>", "raw angle brackets"],
    ["/v1/pets/é", "raw non-ASCII"],
    ["/v1%2Fpets", "an encoded slash right after /v1"],
  ])("refuses %j (%s) with 400 invalid_path", (url) => {
    expect(outcome(url)).toEqual({ status: 400, code: "invalid_path", api: true });
  });

  it.each(["/v1/", "/v1/pets/", "/v1/pets/12/"])("answers a trailing slash (%j) with a JSON 404, not a redirect", (url) => {
    expect(outcome(url, "POST")).toEqual({ status: 404, code: "not_found", api: true });
  });

  it.each(["PROPFIND", "TRACE", "CONNECT", "PURGE", "M-SEARCH"])("refuses the method %s with 405 and Allow", (method) => {
    const refusal = checkRequest(req("/v1/pets", method));
    expect(refusal?.error.status).toBe(405);
    expect(refusal?.error.headers.Allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
  });

  it("refuses an over-long URL with 414 and over-large headers with 431", () => {
    expect(outcome(`/v1/pets?q=${"a".repeat(9000)}`)).toEqual({ status: 414, code: "uri_too_long", api: true });
    expect(outcome("/v1/pets", "GET", { "x-big": "b".repeat(17_000) })).toEqual({ status: 431, code: "header_fields_too_large", api: true });
    expect(outcome("/v1/pets", "GET", { "x-ok": "b".repeat(8_000) })).toBeNull();
  });
});

describe("checkRequest for pages", () => {
  it("leaves page paths to Next, even odd ones", () => {
    for (const url of ["/", "/pets/5", "/docs/", "//x", "/pets/%zz"]) expect(outcome(url)).toBeNull();
  });

  it("refuses large or unmeasured bodies on pages before they are buffered", () => {
    expect(outcome("/", "POST", { "content-length": "20000" })).toEqual({ status: 413, code: "payload_too_large", api: false });
    expect(outcome("/", "POST", { "transfer-encoding": "chunked" })).toEqual({ status: 413, code: "payload_too_large", api: false });
    expect(outcome("/", "POST", { "content-length": "100" })).toBeNull();
  });
});
