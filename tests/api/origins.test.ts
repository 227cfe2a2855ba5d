import { beforeAll, describe, expect, it } from "vitest";
import { GET as openapiGET } from "@/app/v1/openapi.json/route";
import { GET as listGET, POST as createPOST } from "@/app/v1/pets/route";
import { DELETE as signOutDELETE, POST as signInPOST } from "@/app/v1/session/route";
import { SOCKET_ADDRESS_HEADER as SOCKET } from "@/lib/core/socket-address";
import { createStaff } from "@/lib/staff/service";
import { configurableEnv } from "../env";
import { call, expectApiError, expectJson, newKey, seedPets } from "./helpers";

// "Our own origin" is the one the client addressed: the CSRF check, the
// cookie, Location, Link and the OpenAPI servers all follow the Host the
// browser used (or a trusted proxy's X-Forwarded-*), on any name.

const STAFF = { email: "origins@petstore.test", password: "a long enough password" };

const configure = configurableEnv();

beforeAll(async () => {
  await createStaff(STAFF, { organizationId: 1 });
  await seedPets([{ name: "One" }, { name: "Two" }, { name: "Three" }]);
});

const signIn = (headers: Record<string, string>) => call(signInPOST, "/v1/session", { method: "POST", json: STAFF, headers });

/** The session cookie ("name=value") a Set-Cookie header sets. */
const cookieOf = (res: Response) => res.headers.get("set-cookie")!.split(";")[0]!;

async function staffCookie(host: string): Promise<string> {
  const res = await signIn({ host, origin: `http://${host}` });
  expect(res.status).toBe(200);
  return cookieOf(res);
}

describe("the CSRF check accepts the origin the browser used", () => {
  it.each(["127.0.0.1:3000", "localhost:3000", "192.0.2.2:3000", "petstore.internal:8080", "[::1]:3000"])(
    "signs in at http://%s and adds an animal there",
    async (host) => {
      const cookie = await staffCookie(host);
      const res = await call(createPOST, "/v1/pets", {
        method: "POST",
        json: { name: `Added at ${host}`, categoryId: 1 },
        headers: { host, origin: `http://${host}`, cookie },
      });
      const pet = await expectJson<{ id: number }>(res, 201);
      // Location is on the same origin the browser used.
      expect(res.headers.get("location")).toBe(`http://${host}/v1/pets/${pet.id}`);
    },
  );

  it("refuses a foreign Origin for a signed-in session, and a same-site but other-origin one", async () => {
    const cookie = await staffCookie("127.0.0.1:3000");
    for (const origin of ["http://evil.example", "http://localhost:3000", "http://127.0.0.1:3001", "https://127.0.0.1:3000", "null"]) {
      const res = await call(createPOST, "/v1/pets", {
        method: "POST",
        json: { name: "Forged", categoryId: 1 },
        headers: { host: "127.0.0.1:3000", origin, cookie },
      });
      await expectApiError(res, 403, "forbidden");
    }
  });

  it("refuses a cookie write with neither Origin nor Sec-Fetch-Site: same-origin", async () => {
    const cookie = await staffCookie("127.0.0.1:3000");
    const send = (extra: Record<string, string>) =>
      call(createPOST, "/v1/pets", { method: "POST", json: { name: "No origin", categoryId: 1 }, headers: { host: "127.0.0.1:3000", cookie, ...extra } });
    await expectApiError(await send({}), 403, "forbidden");
    await expectApiError(await send({ "sec-fetch-site": "cross-site" }), 403, "forbidden");
    expect((await send({ "sec-fetch-site": "same-origin" })).status).toBe(201);
  });

  it("covers sign-in and sign-out of callers without a session (login CSRF)", async () => {
    await expectApiError(await signIn({ host: "127.0.0.1:3000", origin: "http://evil.example" }), 403, "forbidden");
    await expectApiError(await signIn({ host: "127.0.0.1:3000", "sec-fetch-site": "cross-site" }), 403, "forbidden");
    await expectApiError(await signIn({ host: "127.0.0.1:3000" }), 403, "forbidden");
    const out = await call(signOutDELETE, "/v1/session", { method: "DELETE", headers: { host: "127.0.0.1:3000", origin: "http://evil.example" } });
    await expectApiError(out, 403, "forbidden");
    expect((await call(signOutDELETE, "/v1/session", { method: "DELETE", headers: { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" } })).status).toBe(
      204,
    );
  });

  it("also accepts PUBLIC_BASE_URL's origin and ALLOWED_ORIGINS, and nothing else", async () => {
    configure({ PUBLIC_BASE_URL: "https://api.shelter.example/v1", ALLOWED_ORIGINS: "https://admin.shelter.example" });
    for (const origin of ["https://api.shelter.example", "https://admin.shelter.example"]) {
      expect((await signIn({ host: "10.0.0.5:3000", origin })).status).toBe(200);
    }
    await expectApiError(await signIn({ host: "10.0.0.5:3000", origin: "https://other.shelter.example" }), 403, "forbidden");
  });

  it("behind a trusted proxy, takes the origin from X-Forwarded-Proto/-Host; from anyone else, ignores them", async () => {
    configure({ TRUST_PROXY: "true" });
    const proxied = { host: "127.0.0.1:3001", "x-forwarded-proto": "https", "x-forwarded-host": "shelter.example", origin: "https://shelter.example" };
    const viaProxy = await signIn({ ...proxied, [SOCKET]: "127.0.0.1" });
    expect(viaProxy.status).toBe(200);
    // Secure, and HSTS on an HTTPS answer.
    expect(viaProxy.headers.get("set-cookie")).toMatch(/; Secure/);
    expect(viaProxy.headers.get("strict-transport-security")).toBe("max-age=63072000");

    // The same headers sent straight from a client's own address prove nothing.
    await expectApiError(await signIn({ ...proxied, [SOCKET]: "198.51.100.7" }), 403, "forbidden");
  });
});

describe("everything else derived from the request's address follows the same rule", () => {
  it("Link URLs are on the origin addressed, through a proxy too", async () => {
    const { key } = await newKey(["pets:read"]);
    const direct = await call(listGET, "/v1/pets?limit=1", { key, headers: { host: "192.0.2.2:3000" } });
    expect(direct.headers.get("link")).toMatch(/^<http:\/\/192\.0\.2\.2:3000\/v1\/pets\?limit=1&cursor=[^>]+>; rel="next"$/);
    expect(direct.headers.get("strict-transport-security")).toBeNull();

    configure({ TRUST_PROXY: "true" });
    const proxied = await call(listGET, "/v1/pets?limit=1", {
      key,
      headers: { host: "127.0.0.1:3001", [SOCKET]: "127.0.0.1", "x-forwarded-proto": "https", "x-forwarded-host": "api.shelter.example" },
    });
    expect(proxied.headers.get("link")).toMatch(/^<https:\/\/api\.shelter\.example\/v1\/pets\?limit=1&cursor=/);
    expect(proxied.headers.get("strict-transport-security")).toBe("max-age=63072000");
  });

  it("the OpenAPI production server is the origin addressed unless PUBLIC_BASE_URL fixes it", async () => {
    const servers = async (host: string) =>
      (await expectJson<{ servers: { url: string }[] }>(await call(openapiGET, "/v1/openapi.json", { headers: { host } }))).servers;
    expect((await servers("192.0.2.2:3000"))[0]!.url).toBe("http://192.0.2.2:3000/v1");
    expect((await servers("petstore.internal"))[0]!.url).toBe("http://petstore.internal/v1");
    configure({ PUBLIC_BASE_URL: "https://api.shelter.example/v1/" });
    expect((await servers("192.0.2.2:3000"))[0]!.url).toBe("https://api.shelter.example/v1");
  });
});

describe("session cookies", () => {
  it("in production are Secure and __Host- prefixed, whatever name the site is reached by", async () => {
    configure({ NODE_ENV: "production" });
    for (const host of ["127.0.0.1:3000", "petstore.internal:8080"]) {
      const cookie = (await signIn({ host, origin: `http://${host}` })).headers.get("set-cookie")!;
      expect(cookie).toMatch(/^__Host-petstore_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Expires=.*; Secure$/);
      expect(cookie).not.toMatch(/Domain=/i);
    }
  });

  it("INSECURE_COOKIES (plain-HTTP use by another name) drops Secure and the prefix; the cookie then still works", async () => {
    configure({ NODE_ENV: "production", INSECURE_COOKIES: "true" });
    const res = await signIn({ host: "192.0.2.2:3000", origin: "http://192.0.2.2:3000" });
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^petstore_session=/);
    expect(cookie).not.toMatch(/Secure/);
    const write = await call(createPOST, "/v1/pets", {
      method: "POST",
      json: { name: "Insecure mode", categoryId: 1 },
      headers: { host: "192.0.2.2:3000", origin: "http://192.0.2.2:3000", cookie: cookieOf(res) },
    });
    expect(write.status).toBe(201);
  });

  it("in development are Secure only when the client used HTTPS", async () => {
    configure({ NODE_ENV: "development" });
    const plain = await signIn({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" });
    expect(plain.headers.get("set-cookie")).toMatch(/^petstore_session=/);
    expect(plain.headers.get("set-cookie")).not.toMatch(/Secure/);
  });

  it("a production cookie without its __Host- prefix is not read (no sibling subdomain can plant one)", async () => {
    configure({ NODE_ENV: "production" });
    const host = "127.0.0.1:3000";
    const value = cookieOf(await signIn({ host, origin: `http://${host}` })).split("=")[1]!;
    const res = await call(createPOST, "/v1/pets", {
      method: "POST",
      json: { name: "Planted", categoryId: 1 },
      headers: { host, origin: `http://${host}`, cookie: `petstore_session=${value}` },
    });
    await expectApiError(res, 401, "unauthorized");
  });
});
