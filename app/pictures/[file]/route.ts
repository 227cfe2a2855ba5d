import { createHash } from "node:crypto";
import { VARIANTS, isAnimalKind } from "@/lib/pictures/kinds";
import { drawAnimal } from "@/lib/pictures/draw";

// The drawings of animals without a photo, /pictures/<kind>-<variant>.svg,
// drawn on first request and kept (7 kinds x 105 variants, ~2 kB each). A
// name's drawing only changes with a release of the code, so browsers and
// CDNs keep it for a year without asking (a release that redraws the
// animals reaches them only as their copies expire). The static pictures
// (public/pictures/<kind>.svg) are served before this route and never reach
// it: their names have no "-<number>".

const NAME = /^([a-z-]+)-([0-9]{1,3})\.svg$/;

const COMMON = {
  "X-Content-Type-Options": "nosniff",
  // Opened on its own, an SVG is a document: it may not load or run anything.
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
};

const drawn = new Map<string, { svg: string; etag: string }>();

function drawing(file: string): { svg: string; etag: string } | undefined {
  const cached = drawn.get(file);
  if (cached) return cached;
  const match = NAME.exec(file);
  if (!match) return undefined;
  const [, kind = "", digits = ""] = match;
  const variant = Number(digits);
  // One name per drawing: "cat-017.svg" is not another copy of "cat-17.svg".
  if (!isAnimalKind(kind) || variant >= VARIANTS || String(variant) !== digits) return undefined;
  const svg = drawAnimal(kind, variant);
  const entry = { svg, etag: `"${createHash("sha256").update(svg).digest("base64url").slice(0, 27)}"` };
  drawn.set(file, entry);
  return entry;
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

// GET /pictures/{kind}-{variant}.svg - an animal's drawing: public, immutable, cached for a year
export async function GET(request: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const found = drawing((await ctx.params).file);
  if (!found) {
    return new Response("No such picture.\n", {
      status: 404,
      headers: { ...COMMON, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const headers = { ...COMMON, "Cache-Control": "public, max-age=31536000, immutable", ETag: found.etag };
  if (matches(request.headers.get("if-none-match"), found.etag)) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : found.svg, {
    status: 200,
    headers: { ...headers, "Content-Type": "image/svg+xml", "Content-Length": String(Buffer.byteLength(found.svg)) },
  });
}
