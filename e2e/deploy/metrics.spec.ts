import http from "node:http";
import { expect, test } from "@playwright/test";
import { createKey } from "../helpers";
import { startInstance, stopInstance, type Instance } from "./topology";

// /metrics on a production server with two workers (node:cluster), as
// Prometheus scrapes it: whichever worker takes the scrape, it reports the
// whole instance, because the primary sums the workers' figures.

const TOKEN = "e2e-metrics-token-of-at-least-32-characters";
let server: Instance;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startInstance({ env: { WEB_CONCURRENCY: "2", METRICS_TOKEN: TOKEN } });
});

test.afterAll(async () => {
  if (server) await stopInstance(server);
});

/** One request on a connection of its own: the cluster hands each new connection to the next worker. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port: server.port, path, headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
  });
}

const scrape = async () => {
  const res = await get("/metrics", { authorization: `Bearer ${TOKEN}` });
  expect(res.status).toBe(200);
  return res.body;
};

const count = (text: string, line: string) => Number(new RegExp(`^${line.replace(/[{}()[\].*+?^$|\\/]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1] ?? 0);

test("refuses a scrape without the token, and answers one with it", async () => {
  expect((await get("/metrics")).status).toBe(401);
  expect((await get("/metrics", { authorization: "Bearer wrong-token-wrong-token-wrong-token" })).status).toBe(401);
  const text = await scrape();
  expect(text).toContain("# TYPE petstore_http_requests_total counter");
  expect(text).toContain("petstore_nodejs_eventloop_lag_seconds");
  // The workers (node:cluster) run on the project's Node, the one this suite runs on.
  expect(text).toContain(`petstore_nodejs_version_info{version="v${process.versions.node}",major="${process.versions.node.split(".")[0]}"`);
});

test("each scrape sees every worker's requests, summed; routes are templates", async () => {
  const key = createKey("e2e metrics", "--plan", "business");
  const line = 'petstore_http_requests_total{route="/v1/pets/{petId}",method="GET",status="404"}';
  const before = count(await scrape(), line);
  const requests = 40;
  for (let i = 0; i < requests; i++) {
    const res = await get(`/v1/pets/${900_000_000 + i}`, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(404);
  }
  // Several scrapes, so that both workers take some: each shows the whole count.
  for (let i = 0; i < 6; i++) expect(count(await scrape(), line) - before).toBe(requests);
  expect(await scrape()).not.toMatch(/route="\/v1\/pets\/9\d+"/);
});
