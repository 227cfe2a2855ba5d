// The framework's own cost (npm run bench): a route handler that does nothing,
// in an app that has nothing else, built and served as Next builds and serves
// any app. Plain JavaScript, so the fixture needs no tsconfig of its own.
export const dynamic = "force-dynamic";

export function GET() {
  return new Response('{"status":"ok"}', { status: 200, headers: { "Content-Type": "application/json" } });
}
