import http from "node:http";
import fc from "fast-check";
import { expect, test } from "@playwright/test";
import { freshDatabase, startInstance, stopInstance, type Instance } from "../deploy/topology";
import { cli } from "../helpers";

// Bots send garbage. A seeded property-based fuzz over methods x paths x
// query strings x headers x bodies x how a body is framed, for every /v1
// route, sent raw on the wire (no client-side URL normalisation) to a
// production server on a database of its own, four at a time, each on a
// connection of its own. Whatever arrives:
//   - every request gets an answer (no reset, no close without one, no
//     second answer behind it);
//   - no answer is a 5xx;
//   - every 4xx is the JSON Error shape { code, message, status[, details] };
//   - every answer carries CORS and X-Request-Id;
//   - every 201 is readable afterwards.

const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Requests in flight at once: answers lost only when the server is busy (a request and what follows it read in one go) need more than one. */
const IN_FLIGHT = Number(process.env.FUZZ_IN_FLIGHT ?? 4);

let server: Instance;
let key: string;
let readOnlyKey: string;

test.beforeAll(async () => {
  // A migration, two CLI runs and a production server's start: minutes on a machine busy with other builds.
  test.setTimeout(240_000);
  const url = await freshDatabase(`${process.env.E2E_DATABASE ?? "petstore_e2e"}_fuzz`);
  const issue = (...args: string[]) => {
    const out = cli("keys", "create", "--org", "1", ...args);
    expect(out.status, out.stderr).toBe(0);
    return out.stdout.trim().split("\n").at(-1)!;
  };
  process.env.FUZZ_DATABASE_URL = url;
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  key = issue("--name", "fuzz", "--plan", "enterprise", "--per-minute", "100000000", "--per-day", "100000000");
  readOnlyKey = issue("--name", "fuzz read-only", "--scopes", "pets:read", "--plan", "enterprise", "--per-minute", "100000000", "--per-day", "100000000");
  process.env.DATABASE_URL = previous;
  server = await startInstance({ env: { DATABASE_URL: url, TRUST_PROXY: "false", LOG_LEVEL: "warn" } });
});

test.afterAll(async () => {
  if (server) await stopInstance(server);
});

/**
 * How a body goes on the wire: with its Content-Length, chunked, or as
 * Node's client sends it when not told its length (chunked for POST, PUT
 * and PATCH; for DELETE, OPTIONS and others, the bytes right after the
 * headers with no length at all, which the server reads as a request
 * without a body followed by bytes that are not HTTP).
 */
type Framing = "length" | "chunked" | "unframed";

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  framing?: Framing;
}

interface Received {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request exactly as written: path bytes untouched, from a loopback address of the fuzz's own (its own per-address budget). */
function send(port: number, req: Sent): Promise<Received> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.path,
        headers: !req.body
          ? req.headers
          : req.framing === "chunked"
            ? { ...req.headers, "transfer-encoding": "chunked" }
            : req.framing === "unframed"
              ? req.headers
              : { ...req.headers, "content-length": String(req.body.length) },
        localAddress: "127.0.0.42",
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    r.on("error", reject);
    r.end(req.body);
  });
}

// ---- generators ---------------------------------------------------------

const pctGarbage = fc.constantFrom("%", "%z", "%zz", "%E0%A4%A", "%C0%AF", "%FF", "%00", "%2F", "%2e%2e", "%5C", "%E2%9C%93", "%F0%9F%90%B6");
const word = fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/);
const unicodeWord = fc.string({ unit: "grapheme", maxLength: 8 }).map((s) => encodeURIComponent(s));
const idLike = fc.oneof(
  fc.integer({ min: 1, max: 200 }).map(String),
  fc.constantFrom("0", "-1", "1.5", "1e3", "0x10", "9007199254740991", "9007199254740992", "99999999999999999999999", "abc", ""),
  word,
  unicodeWord,
  pctGarbage,
);
const segment = fc.oneof(
  { weight: 4, arbitrary: word },
  { weight: 1, arbitrary: unicodeWord },
  { weight: 1, arbitrary: pctGarbage },
  { weight: 1, arbitrary: fc.constantFrom(".", "..", "") },
);

const routePath = fc.oneof(
  fc.constant("/v1/pets"),
  idLike.map((id) => `/v1/pets/${id}`),
  fc.constant("/v1/categories"),
  fc.constant("/v1/openapi.json"),
  fc.constant("/v1/session"),
  fc.constant("/v1/keys"),
  idLike.map((id) => `/v1/keys/${id}`),
  idLike.map((id) => `/v1/keys/${id}/ban`),
  fc.constant("/v1"),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/v1/${s.join("/")}`),
);
const mutatedPath = fc.tuple(routePath, fc.constantFrom("none", "trailing", "double", "dot", "long")).map(([p, m]) => {
  if (m === "trailing") return `${p}/`;
  if (m === "double") return p.replace("/v1/", "/v1//");
  if (m === "dot") return `${p}/../pets`;
  if (m === "long") return `${p}/${"a".repeat(9_000)}`;
  return p;
});

const queryValue = fc.oneof(
  fc.constantFrom("1", "20", "100", "0", "101", "-5", "abc", "available", "pending", "sold", "SOLD", "", "1,2,3", "eyJ2IjoxfQ"),
  word,
  unicodeWord,
  pctGarbage,
);
const queryKey = fc.constantFrom("limit", "status", "categoryId", "cursor", "q", "id", "constructor", "__proto__", "toString", "hasOwnProperty", "x", "");
const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 5 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : ""));

const method = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom("GET", "POST", "PATCH", "DELETE", "OPTIONS", "HEAD", "PUT") },
  { weight: 1, arbitrary: fc.constantFrom("PROPFIND", "TRACE", "PURGE", "MKCOL", "SEARCH") },
);

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const body = fc.oneof(
  fc.constant(undefined),
  fc
    .record({
      name: fc.string({ unit: "grapheme", maxLength: 120 }),
      categoryId: fc.integer({ min: -2, max: 9 }),
      status: fc.constantFrom("available", "sold", "adopted", undefined),
    })
    .map(json),
  fc.record({ name: fc.constantFrom("Fuzzy", " ", "Ünïcødé 🐶"), categoryId: fc.integer({ min: 1, max: 6 }) }).map(json),
  fc.jsonValue({ maxDepth: 3 }).map(json),
  fc.constantFrom("{", "[1,", "null", '"x"', '{"name":"a\u0000b","categoryId":1}', "\u00ff\u00fe").map((s) => Buffer.from(s, "latin1")),
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
  fc.constant(Buffer.alloc(70 * 1024, 0x20)),
);

const framing = fc.constantFrom<Framing>("length", "length", "length", "chunked", "unframed");

const authorization = (key: string, readOnly: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${key}`) },
    { weight: 1, arbitrary: fc.constant(`bearer ${readOnly}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        "",
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        `Bearer pk_live_${"A1b2C3d4".repeat(4)}`,
        `Bearer pk_test_${"A1b2C3d4".repeat(4)}`,
        "Bearer a b",
      ),
    },
  );

const headers = (key: string, readOnly: string) =>
  fc
    .record({
      authorization: authorization(key, readOnly),
      "content-type": fc.constantFrom(
        undefined,
        "application/json",
        "application/json; charset=utf-8",
        "text/plain",
        "application/merge-patch+json",
        "multipart/form-data; boundary=x",
        "garbage",
      ),
      "x-request-id": fc.constantFrom(undefined, "fuzz-1", "", "a".repeat(300), "bad id with spaces"),
      origin: fc.constantFrom(undefined, "http://evil.example", "null"),
      cookie: fc.constantFrom(undefined, "__Host-petstore_session=garbage", "petstore_session=x; a=b", "=; ;;"),
      "idempotency-key": fc.constantFrom(undefined, "k1", "", "x".repeat(300)),
      "if-match": fc.constantFrom(undefined, '"1"', "*", "garbage"),
    })
    .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

// ---- the property -------------------------------------------------------

test("every /v1 request gets one well-formed, non-5xx JSON answer, four at a time, and every 201 is readable", async () => {
  test.setTimeout(300_000);
  // Three kinds, interleaved: pure garbage; plausible calls (a real route, a
  // valid key, JSON) with one thing wrong or nothing wrong, so the handlers'
  // own paths (validation, creation, paging) are reached, not only the gate;
  // and requests the server refuses before Next (trailing slash, empty or
  // dot segment, unknown method) carrying a body.
  const plausible = fc.record({
    method: fc.constantFrom("GET", "POST", "GET", "POST", "PATCH", "DELETE", "OPTIONS"),
    path: fc.oneof(
      fc.constant("/v1/pets"),
      fc.constant("/v1/pets"),
      idLike.map((id) => `/v1/pets/${id}`),
      fc.constant("/v1/categories"),
    ),
    query,
    headers: headers(key, readOnlyKey).map((h) => ({ ...h, authorization: `Bearer ${key}`, "content-type": "application/json" })),
    body,
    framing,
  });
  const refusedWithBody = fc.record({
    method: fc.constantFrom("DELETE", "POST", "PATCH", "PUT", "OPTIONS", "PROPFIND"),
    path: fc.oneof(
      fc.constantFrom("/v1/pets/", "/v1/pets/1/", "/v1//pets", "/v1/pets/../keys", "/v1/pets/%zz"),
      routePath.map((p) => `${p}/`),
    ),
    query: fc.constant(""),
    headers: headers(key, readOnlyKey).map((h) => ({ ...h, "content-type": "application/json" })),
    body: fc.oneof(
      fc.string({ minLength: 20, maxLength: 100 }).map((name) => json({ name, categoryId: 1 })),
      fc.uint8Array({ minLength: 1, maxLength: 4096 }).map((a) => Buffer.from(a)),
    ),
    framing,
  });
  const request = fc.oneof(
    { weight: 4, arbitrary: fc.record({ method, path: mutatedPath, query, headers: headers(key, readOnlyKey), body, framing }) },
    { weight: 4, arbitrary: plausible },
    { weight: 2, arbitrary: refusedWithBody },
  );
  const requests = fc.sample(request, { numRuns: RUNS, seed: SEED });
  const created: string[] = [];
  const problems: string[] = [];
  const started = Date.now();

  // Plain checks, not expect(): Playwright records every expect() in the
  // trace, which makes thousands of them take minutes.
  const check = (ok: boolean, what: string, where: string) => {
    if (!ok) problems.push(`${what}: ${where}`);
    return ok;
  };
  const one = async (r: (typeof requests)[number]) => {
    const sent: Sent = {
      method: r.method,
      path: `${r.path}${r.query}`,
      headers: r.headers,
      body: r.method === "GET" || r.method === "HEAD" ? undefined : r.body,
      framing: r.framing,
    };
    const asSent = `${sent.method} ${sent.path.slice(0, 160)}${sent.body ? ` (${sent.body.length}-byte body, ${sent.framing})` : ""}`;
    let res: Received;
    try {
      res = await send(server.port, sent);
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      problems.push(`no answer (${e.code ?? ""} ${e.message}): ${asSent}`);
      return;
    }
    const where = `${asSent} -> ${res.status} ${res.body.slice(0, 200)}`;
    check(res.status < 500, "a 5xx", where);
    check(res.headers["access-control-allow-origin"] === "*", "no CORS header", where);
    check(/^[A-Za-z0-9._:-]{1,128}$/.test(String(res.headers["x-request-id"])), "no X-Request-Id", where);
    if (res.status >= 400 && sent.method !== "HEAD" && check(/^application\/json\b/.test(String(res.headers["content-type"])), "not JSON", where)) {
      let error: Record<string, unknown>;
      try {
        error = JSON.parse(res.body) as Record<string, unknown>;
      } catch {
        problems.push(`a body that is not JSON: ${where}`);
        return;
      }
      const keys = Object.keys(error)
        .filter((k) => k !== "details")
        .sort()
        .join(",");
      check(keys === "code,message,status", `fields ${keys}`, where);
      check(error.status === res.status, "status field differs", where);
      check(typeof error.code === "string" && /^[a-z_]+$/.test(error.code), "bad code", where);
      check(typeof error.message === "string" && error.message.length > 0, "no message", where);
      if ("details" in error) check(Array.isArray(error.details), "details not an array", where);
    }
    if (res.status === 201 && res.headers.location) created.push(res.headers.location);
  };

  let next = 0;
  const worker = async () => {
    while (next < requests.length) await one(requests[next++]!);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  expect(problems.slice(0, 20), `${problems.length} of ${RUNS} requests went wrong`).toEqual([]);

  // Every animal the API said it created is there.
  for (const location of created) {
    const res = await send(server.port, { method: "GET", path: new URL(location).pathname, headers: { authorization: `Bearer ${key}` } });
    expect(res.status, location).toBe(200);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  console.log(`fuzz: ${RUNS} requests (seed ${SEED}, ${IN_FLIGHT} in flight), ${created.length} animals created and read back, ${seconds} s`);
  expect(created.length).toBeGreaterThan(0);
});

test("refused requests that carry a body, fifty at a time on fresh connections, each get their answer", async () => {
  test.setTimeout(180_000);
  // What the server refuses before Next (trailing slash, empty segment, dot
  // segment, unknown method) with a body it never needed: it reads and drops
  // the body before answering and closing, so no close turns into a reset
  // that takes the answer with it (HPE_CLOSED_CONNECTION, ECONNRESET).
  const refused = fc.record({
    method: fc.constantFrom("DELETE", "POST", "PATCH", "PUT", "PROPFIND"),
    path: fc.oneof(
      fc.constantFrom("/v1/pets/", "/v1/pets/1/", "/v1//pets", "/v1/pets/../keys", "/v1/pets/%zz"),
      routePath.map((p) => `${p}/`),
    ),
    body: fc.oneof(
      fc.constant(json({ name: "Fuzzy", categoryId: 1, status: "available" })),
      fc.uint8Array({ minLength: 1, maxLength: 4096 }).map((a) => Buffer.from(a)),
      fc.constant(Buffer.alloc(70 * 1024, 0x20)),
    ),
    framing,
  });
  const requests = fc.sample(refused, { numRuns: 1_000, seed: SEED });
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const r = requests[next++]!;
      const where = `${r.method} ${r.path.slice(0, 80)} with ${r.body.length} bytes (${r.framing})`;
      try {
        const res = await send(server.port, {
          method: r.method,
          path: r.path,
          headers: { "content-type": "application/json" },
          body: r.body,
          framing: r.framing,
        });
        if (res.status < 400 || res.status >= 500 || !/^application\/json\b/.test(String(res.headers["content-type"])))
          failures.push(`${where} -> ${res.status}`);
      } catch (error) {
        failures.push(`${where} -> no answer: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  expect(failures).toEqual([]);
});
