import { HEALTH_HEADERS } from "@/lib/health";

// GET /healthz - liveness: the process is up and answering; touches no dependency
export function GET(): Response {
  return new Response('{"status":"ok"}', { status: 200, headers: HEALTH_HEADERS });
}
