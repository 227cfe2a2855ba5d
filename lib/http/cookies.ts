import { env } from "@/lib/env";

/** One cookie's value from a Cookie header (first occurrence wins, as browsers send the most specific first). */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * HttpOnly (no script can read it), SameSite=Lax (not sent on cross-site
 * subrequests), Secure in production, except on a loopback address where
 * browsers would otherwise drop it over plain http during local runs.
 */
export function sessionCookie(name: string, value: string, options: { expires?: Date; url: URL }): string {
  const secure = options.url.protocol === "https:" || (env().NODE_ENV === "production" && !LOOPBACK.has(options.url.hostname));
  const parts = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearedCookie(name: string, url: URL): string {
  return sessionCookie(name, "", { expires: new Date(0), url });
}
