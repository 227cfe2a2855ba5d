import fs from "node:fs";
import path from "node:path";
import type { RouteDeclaration } from "@/lib/http/handler";
import type { RouteHandler } from "./helpers";

// Every /v1 route, read from the disk: the tables that hold every route to a
// rule (tenancy-isolation.test.ts, visibility.test.ts) walk this list, so a
// route added later is in no table and fails them.

const V1 = path.join(process.cwd(), "app", "v1");
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export interface Found {
  route: string;
  method: (typeof METHODS)[number];
  handler: RouteHandler & { declared?: RouteDeclaration & { refusesMethod?: boolean } };
}

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** "/v1/pets/{petId}" from app/v1/pets/[petId]/route.ts. */
function template(file: string): string {
  const rel = path.relative(path.join(process.cwd(), "app"), path.dirname(file));
  return `/${rel
    .split(path.sep)
    .map((part) => part.replace(/^\[\[?\.{0,3}([^\]]+)\]?\]$/, "{$1}"))
    .join("/")}`;
}

/** Each method a /v1 route file answers (not those it only refuses with 405). */
export async function allRoutes(): Promise<Found[]> {
  const found: Found[] = [];
  for (const file of routeFiles(V1)) {
    const mod = (await import(file)) as Record<string, Found["handler"]>;
    for (const method of METHODS) {
      const handler = mod[method];
      if (!handler || handler.declared?.refusesMethod) continue;
      found.push({ route: template(file), method, handler });
    }
  }
  return found;
}
