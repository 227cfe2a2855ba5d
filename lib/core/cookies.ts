import { env } from "@/lib/env";

/** One cookie's value from a Cookie header (first occurrence wins, as browsers send the most specific first). */
export function readCookie(request: { headers: { get(name: string): string | null } }, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Production cookies are Secure and carry the __Host- prefix: the browser
 * sends them only over HTTPS (or to a loopback name, which browsers treat as
 * secure), and no sibling subdomain can plant or overwrite one. The policy is
 * the process's, not the request's, so one name is read and written
 * everywhere; INSECURE_COOKIES turns it off for plain-HTTP use by another name.
 */
export function secureCookies(): boolean {
  const { NODE_ENV, INSECURE_COOKIES } = env();
  return NODE_ENV === "production" && !INSECURE_COOKIES;
}

const BASE_NAME = "petstore_session";

export function sessionCookieName(): string {
  return secureCookies() ? `__Host-${BASE_NAME}` : BASE_NAME;
}

export function readSessionCookie(request: { headers: { get(name: string): string | null } }): string | undefined {
  return readCookie(request, sessionCookieName());
}

/**
 * HttpOnly (no script can read it), SameSite=Lax (not sent on cross-site
 * subrequests), Path=/ and no Domain (as __Host- requires), Secure under the
 * policy above or whenever the client reached us over HTTPS.
 */
export function sessionCookie(value: string, options: { expires?: Date; origin: string }): string {
  const parts = [`${sessionCookieName()}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (secureCookies() || options.origin.startsWith("https:")) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookie(origin: string): string {
  return sessionCookie("", { expires: new Date(0), origin });
}
