// The layers of lib/, bottom first (docs/architecture.md). Read by
// .dependency-cruiser.cjs (the lint rule) and scripts/layers-report.ts (the counts).
/** Bottom first. A unit may import the units before it, never those after it. */
const LAYERS = [
  {
    name: "core",
    what: "primitives: environment, clock, log, errors, ids, paging, db, metrics registry, enqueueing, and technical services that know no domain",
    units: [
      "env", "terminal", "zod-jitless", "clock", "lifecycle", "log", "background", "batch", "bounded-map", "pg-client",
      "app-secret", "core", "db", "db-statistics", "jobs", "metrics", "outbound", "mail", "rate-limit", "replicas", "pictures", "i18n",
    ],
  },
  {
    name: "domains",
    what: "one folder per capability (schemas, queries, service), each importing core and the domains before it",
    units: [
      "organizations", "keys", "staff", "sessions", "visibility", "idempotency", "stays", "audit", "pets", "events", "photos", "saved",
      "listings", "categories", "webhooks", "imports", "applications", "alerts", "people", "reports", "dashboard",
    ],
  },
  {
    name: "adapters",
    what: "the HTTP wrapper and tenancy, the OpenAPI parts and document, health",
    units: ["http", "openapi", "health"],
  },
  {
    name: "roots",
    what: "composition roots: the server's start and the worker's task registry (lib/server, lib/worker), the site's callers of the API (lib/site), route files, pages, components, scripts",
    units: ["server", "worker", "site"],
  },
];

module.exports = { LAYERS };
