import { HEALTH_HEADERS, readiness } from "@/lib/health";

// GET /readyz - readiness: PostgreSQL and the counter store answer, and the instance is not shutting down
export async function GET(): Promise<Response> {
  const result = await readiness();
  const ready = result.status === "ready";
  return new Response(JSON.stringify(result), {
    status: ready ? 200 : 503,
    headers: { ...HEALTH_HEADERS, ...(ready ? {} : { "Retry-After": "5" }) },
  });
}
