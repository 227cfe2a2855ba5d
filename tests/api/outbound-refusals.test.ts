import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as createSiteRoute } from "@/app/v1/listing-sites/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { resetEnvCache } from "@/lib/env";
import { fetchOutbound } from "@/lib/outbound/fetch";
import { captureLogLines } from "@/tests/log-capture";
import { call, expectApiError, newKey } from "./helpers";

// Whether an internal name exists is nobody's business but the operators':
// everywhere a refused outbound host is reported (a webhook's registration,
// a listing site's FTP host, the fetch of an import's photo URLs), a name that does not
// resolve reads exactly as one that resolves to a private address (before:
// "could not be resolved (ENOTFOUND)" against "is not a public address"),
// and the difference is in the log only. Names resolve for real here:
// "*.invalid" never does (RFC 6761), "localhost" is 127.0.0.1.

const log = captureLogLines();

beforeAll(() => {
  vi.stubEnv("OUTBOUND_ALLOW_PRIVATE", "false");
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
  resetEnvCache();
});

afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

/** The message with the host's name taken out, to compare two hosts' refusals. */
const shape = (message: string, host: string) => message.replaceAll(host, "<host>");

/** The operators' log lines about refused hosts written since `from`. */
const refusals = (from: number) =>
  log
    .since(from)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === "outbound host refused");

describe("a refused host reads the same whether its name does not resolve or resolves inside", () => {
  it("webhooks: 400 invalid_webhook_url with one message; the log tells which", async () => {
    const { key } = await newKey(["pets:read", "webhooks:manage"], "partner");
    const from = log.lines.length;
    const refused = async (host: string) => {
      const body = await expectApiError(
        await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key, json: { url: `https://${host}/hook`, events: ["pet.created"] } }),
        400,
        "invalid_webhook_url",
      );
      return [shape(body.message, host), ...(body.details ?? []).map((d) => shape(d.issue, host))];
    };
    const missing = await refused("db.invalid");
    expect(missing).toEqual(await refused("localhost"));
    expect(missing[0]).toBe(
      'The webhook URL cannot be used. The host "<host>" does not resolve to a public address: webhooks are only sent to public addresses.',
    );
    expect(refusals(from)).toEqual([
      expect.objectContaining({
        host: "db.invalid",
        reason: "unresolvable",
        resolution: expect.stringMatching(/^does not resolve \((ENOTFOUND|EAI_AGAIN)\)$/),
      }),
      expect.objectContaining({ host: "localhost", reason: "not_public", resolution: expect.stringContaining("127.0.0.1") }),
    ]);
  });

  it("listing sites: 400 invalid_listing_host with one message", async () => {
    const { key } = await newKey(["listings:manage"], "listing manager");
    const refused = async (host: string) => {
      const body = await expectApiError(
        await call(createSiteRoute, "/v1/listing-sites", { method: "POST", key, json: { site: "adoptapet", host, username: "u", password: "p" } }),
        400,
        "invalid_listing_host",
      );
      return [shape(body.message, host), ...(body.details ?? []).map((d) => shape(d.issue, host))];
    };
    const missing = await refused("ftp.invalid");
    expect(missing).toEqual(await refused("localhost"));
    expect(missing[0]).toBe(
      'The FTP host cannot be used. The host "<host>" does not resolve to a public address: listing sites are only reached at public addresses.',
    );
  });

  it("an import's photo URLs: the fetch that imports use refuses both in one message (the report's line quotes it)", async () => {
    // The photo fetch of lib/imports/run.ts, with its guard options: a name that
    // does not resolve (db.invalid, for real) and one that resolves inside.
    const guard = { allowPrivate: false, refusal: "photos are only fetched from public addresses" };
    const messageOf = (url: string, resolve?: (host: string) => Promise<{ address: string; family: number }[]>) =>
      fetchOutbound(url, { ...guard, ...(resolve ? { resolve } : {}) }).then(
        () => "fetched",
        (e: Error) => e.message,
      );
    const missing = await messageOf("https://db.invalid/a.jpg");
    const inside = await messageOf("https://inside.example/b.jpg", async () => [{ address: "10.0.0.5", family: 4 }]);
    expect(missing).toBe('The host "db.invalid" does not resolve to a public address: photos are only fetched from public addresses.');
    expect(shape(inside, "inside.example")).toBe(shape(missing, "db.invalid"));
  });
});
