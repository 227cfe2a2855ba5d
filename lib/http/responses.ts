import { ifNoneMatchMatches } from "@/lib/core/conditional";
import { readsFromReplica, withReadPolicy } from "@/lib/replicas";

// Answers that more than one route builds the same way, so they are built once.

/**
 * A CSV file to download (the monthly reports, a listing site's file),
 * private to its reader and never sniffed as anything else. Kept by no cache
 * unless `etag` is given: then the reader may keep it and ask again with
 * If-None-Match.
 */
export function csvDownload(csv: string | Uint8Array, filename: string, etag?: string): { raw: Uint8Array; headers: Record<string, string> } {
  return {
    raw: typeof csv === "string" ? new TextEncoder().encode(csv) : csv,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      ...(etag ? { ETag: etag, "Cache-Control": "private, no-cache" } : { "Cache-Control": "private, no-store" }),
      "X-Content-Type-Options": "nosniff",
    },
  };
}

/**
 * Reads, and reads again from the primary when a caller polling with If-None-Match holds a tag the
 * replica's answer does not match: that tag may be newer than the replica, and nobody gets an older
 * version than one they hold. `etagOf` is the answer's tag (null for nothing found).
 */
export async function readNoOlderThanHeld<T>(request: Request, read: () => Promise<T>, etagOf: (answer: T) => string | null): Promise<T> {
  const answer = await read();
  if (!readsFromReplica() || !request.headers.has("if-none-match")) return answer;
  const etag = etagOf(answer);
  if (etag !== null && ifNoneMatchMatches(request, etag)) return answer;
  return withReadPolicy({ primary: true }, read);
}
