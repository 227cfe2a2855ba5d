import { isDatabaseUnavailable } from "@/lib/core/errors";
import { logger } from "@/lib/log";
import { readPhotoFile } from "@/lib/photos/service";

// Serving photo files at /photos/<key>. A key is the file's content hash, so
// the bytes under a name never change: browsers and CDNs may keep them for a
// year without asking again, the ETag is the hash itself, and a client that
// already has it gets 304 without the store being read at all.

const KEY = /^([A-Za-z0-9_-]{43})\.webp$/;

const COMMON = {
  "X-Content-Type-Options": "nosniff",
  // Partners show our photos on their own pages.
  "Cross-Origin-Resource-Policy": "cross-origin",
};

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, { status, headers: { ...COMMON, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });
}

export async function servePhotoFile(request: Request, key: string): Promise<Response> {
  const match = KEY.exec(key);
  if (!match) return plain(404, "No such photo.");
  const etag = `"${match[1]}"`;
  const cache = { ...COMMON, "Cache-Control": "public, max-age=31536000, immutable", ETag: etag };
  const wanted = request.headers.get("if-none-match");
  if (wanted && (wanted.trim() === "*" || wanted.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))) {
    return new Response(null, { status: 304, headers: cache });
  }
  let file;
  try {
    file = await readPhotoFile(key);
  } catch (error) {
    if (isDatabaseUnavailable(error)) return plain(503, "Photos are temporarily unavailable.", { "Retry-After": "5" });
    logger().error({ err: error, key }, "photo file could not be read");
    return plain(500, "The photo could not be read.");
  }
  if (!file) return plain(404, "No such photo.");
  return new Response(request.method === "HEAD" ? null : new Uint8Array(file.bytes), {
    status: 200,
    headers: { ...cache, "Content-Type": file.contentType, "Content-Length": String(file.bytes.length) },
  });
}
