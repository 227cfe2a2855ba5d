import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as createSiteRoute } from "@/app/v1/listing-sites/route";
import { POST as createWebhookRoute } from "@/app/v1/webhooks/route";
import { resetEnvCache } from "@/lib/env";
import { PETFINDER_COLUMNS } from "@/lib/listings/formats/petfinder";
import { captureLogLines } from "@/tests/log-capture";
import { call, expectApiError, newKey, newOrganization } from "./helpers";
import { importFile, NO_DNS } from "./imports-helpers";

// Whether an internal name exists is nobody's business but the operators':
// everywhere a refused outbound host is reported (a webhook's registration,
// a listing site's FTP host, an import's photo URL), a name that does not
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
      const body = await expectApiError(await call(createWebhookRoute, "/v1/webhooks", { method: "POST", key, json: { url: `https://${host}/hook`, events: ["pet.created"] } }), 400, "invalid_webhook_url");
      return [shape(body.message, host), ...(body.details ?? []).map((d) => shape(d.issue, host))];
    };
    const missing = await refused("db.invalid");
    expect(missing).toEqual(await refused("localhost"));
    expect(missing[0]).toBe('The webhook URL cannot be used. The host "<host>" does not resolve to a public address: webhooks are only sent to public addresses.');
    expect(refusals(from)).toEqual([
      expect.objectContaining({ host: "db.invalid", reason: "unresolvable", resolution: expect.stringMatching(/^does not resolve \((ENOTFOUND|EAI_AGAIN)\)$/) }),
      expect.objectContaining({ host: "localhost", reason: "not_public", resolution: expect.stringContaining("127.0.0.1") }),
    ]);
  });

  it("listing sites: 400 invalid_listing_host with one message", async () => {
    const { key } = await newKey(["listings:manage"], "listing manager");
    const refused = async (host: string) => {
      const body = await expectApiError(await call(createSiteRoute, "/v1/listing-sites", { method: "POST", key, json: { site: "adoptapet", host, username: "u", password: "p" } }), 400, "invalid_listing_host");
      return [shape(body.message, host), ...(body.details ?? []).map((d) => shape(d.issue, host))];
    };
    const missing = await refused("ftp.invalid");
    expect(missing).toEqual(await refused("localhost"));
    expect(missing[0]).toBe('The FTP host cannot be used. The host "<host>" does not resolve to a public address: listing sites are only reached at public addresses.');
  });

  it("an import's photo URLs: the report says one thing of both", async () => {
    const org = await newOrganization({ name: "Refused Photos Shelter" });
    const { key } = await newKey(["pets:read", "pets:write"], "importer", { plan: "pro" }, org);
    const row = (id: string, url: string) => PETFINDER_COLUMNS.map((c) => `"${({ ID: id, AnimalName: "Pic", Type: "Dog", photo1: url } as Record<string, string>)[c] ?? ""}"`).join(",");
    const csv = [PETFINDER_COLUMNS.join(","), row("RF-1", "https://db.internal/a.jpg"), row("RF-2", "https://inside.example/b.jpg")].join("\n") + "\n";
    const inside = { guard: { resolve: async (host: string) => (host === "inside.example" ? [{ address: "10.0.0.5", family: 4 }] : NO_DNS.guard!.resolve!(host)) } };
    const done = await importFile({ key }, csv, {}, inside);
    expect(done.photos).toMatchObject({ failed: 2 });
    const missing = done.errors.find((e) => e.message.includes("db.internal"))?.message;
    const internal = done.errors.find((e) => e.message.includes("inside.example"))?.message;
    expect(shape(missing!, "https://db.internal/a.jpg").replace("db.internal", "<host>")).toBe(shape(internal!, "https://inside.example/b.jpg").replace("inside.example", "<host>"));
    expect(missing).toBe('https://db.internal/a.jpg: The host "db.internal" does not resolve to a public address: photos are only fetched from public addresses.');
  });
});
