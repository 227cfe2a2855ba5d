import { buildOpenApiDocument } from "@/lib/openapi/document";

// The route a request reached, as a template: the label of the HTTP metrics
// (lib/metrics.ts). /v1 paths are matched against the OpenAPI document's
// own templates (the site document: every /v1 route there is), so a metric
// reads `/v1/pets/{petId}` as the contract writes it, and never carries an id,
// a token or anything else a client chose: the number of series is bounded
// by the routes, whatever is sent.

interface Template {
  pattern: RegExp;
  template: string;
  params: number;
}

function compile(template: string): Template {
  const segments = template.split("/").slice(1);
  const source = segments.map((s) => (/^\{[^}]+\}$/.test(s) ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
  return { pattern: new RegExp(`^/${source}$`), template, params: segments.filter((s) => s.startsWith("{")).length };
}

/** Pages and files outside /v1, by the same rule. */
const OTHER_ROUTES = [
  "/",
  "/docs",
  "/pets/{id}",
  "/applications/{token}",
  "/alerts/{token}",
  "/staff",
  "/staff/sign-in",
  "/staff/keys",
  "/staff/applications",
  "/staff/pets/new",
  "/staff/fosters",
  "/staff/fosters/board",
  "/photos/{file}",
  "/pictures/{file}",
  "/healthz",
  "/readyz",
  "/metrics",
  "/icon.svg",
  "/favicon.ico",
  "/robots.txt",
];

let compiled: Template[] | undefined;

function templates(): Template[] {
  if (!compiled) {
    const api = Object.keys(buildOpenApiDocument("site").paths ?? {}).map((p) => `/v1${p}`);
    // Literal segments win over parameters (/v1/pets/{petId}/history before any /v1/pets/{petId}/{x}).
    compiled = [...api, "/v1", "/v1/openapi.json", ...OTHER_ROUTES].map(compile).sort((a, b) => a.params - b.params);
  }
  return compiled;
}

/** The template of a request-target's path; `/v1/{unmatched}`, `/_next/{asset}` or `{other}` for anything else. */
export function routeTemplate(target: string): string {
  let path = target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || "/";
  const q = path.search(/[?#]/);
  if (q >= 0) path = path.slice(0, q);
  for (const t of templates()) if (t.pattern.test(path)) return t.template;
  if (path === "/v1" || path.startsWith("/v1/")) return "/v1/{unmatched}";
  if (path.startsWith("/_next/")) return "/_next/{asset}";
  return "{other}";
}
