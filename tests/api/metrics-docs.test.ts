import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { localExposition, metrics } from "@/lib/metrics";

// The operator's files in deploy/ (the alert rules, the Grafana dashboard)
// name only metrics the service exports: a renamed metric fails here, not
// silently on a dashboard or, worse, in an alert that can never fire.

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

async function exported(): Promise<Set<string>> {
  metrics();
  const names = new Set<string>();
  for (const line of (await localExposition()).split("\n")) {
    const match = /^# TYPE (\S+) (\w+)/.exec(line);
    if (!match) continue;
    names.add(match[1]!);
    if (match[2] === "histogram") for (const suffix of ["_bucket", "_count", "_sum"]) names.add(match[1]! + suffix);
  }
  return names;
}

const referenced = (text: string) => [...new Set(text.match(/\bpetstore_[a-z0-9_]+/g) ?? [])];

describe("deploy/ metrics files", () => {
  it("the alert rules: seven, each with an expression, a summary, and only exported metrics", async () => {
    const doc = parse(read("deploy/prometheus/alerts.yml")) as { groups: { rules: { alert: string; expr: string; annotations: { summary: string } }[] }[] };
    const rules = doc.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert)).toEqual([
      "PetstoreHighErrorRatio",
      "PetstoreSlowApi",
      "PetstoreWebhookBacklog",
      "PetstoreReadinessFlapping",
      "PetstoreReplicaLag",
      "PetstoreMailRefused",
      "PetstoreListingUploadsStale",
    ]);
    for (const rule of rules) expect(rule.expr.trim().length && rule.annotations.summary.length).toBeGreaterThan(0);
    const names = await exported();
    const missing = referenced(read("deploy/prometheus/alerts.yml")).filter((n) => !names.has(n));
    expect(missing).toEqual([]);
  });

  it("the Grafana dashboard: valid JSON whose queries use only exported metrics", async () => {
    const text = read("deploy/grafana/petstore-dashboard.json");
    const dashboard = JSON.parse(text) as { panels: { targets: { expr: string }[] }[] };
    expect(dashboard.panels.length).toBeGreaterThan(10);
    const names = await exported();
    const missing = referenced(text).filter((n) => !names.has(n));
    expect(missing).toEqual([]);
  });

  it("the scrape configuration reads /metrics with a bearer token", () => {
    const config = parse(read("deploy/prometheus/prometheus.yml")) as { scrape_configs: { metrics_path: string; authorization: { type: string } }[] };
    expect(config.scrape_configs[0]).toMatchObject({ metrics_path: "/metrics", authorization: { type: "Bearer" } });
  });
});
