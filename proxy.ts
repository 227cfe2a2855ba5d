import { NextResponse, type NextRequest } from "next/server";
import { now } from "@/lib/clock";
import { env } from "@/lib/env";
import { hstsHeader, requestOrigin } from "@/lib/core/client";
import { readSessionCookie, sessionCookie, sessionCookieName } from "@/lib/core/cookies";
import { isInternalRequestHeader, PATHNAME_HEADER, SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";
import { ensureBrowserSession } from "@/lib/sessions/service";
import { VIDEO_PLAYER_ORIGINS } from "@/lib/pets/video";
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALE_HEADER, localePath, ORIGIN_HEADER, preferredLocale, splitLocale } from "@/lib/i18n/locales";

// Runs before every page (not /v1, not static files):
// 1. every visitor gets an anonymous adopter session, so the pages can call
//    /v1 with a cookie instead of a key (rate-limited per session);
// 2. security headers, with a per-request nonce so the CSP can forbid every
//    script Next did not put there itself;
// 3. the language: "/es/…" is served by the same page as "/…", told its
//    language by a request header (i18n/request.ts); a first visit to "/"
//    from a browser preferring Spanish goes to "/es", once (a cookie keeps the
//    language last used, so a choice made with the switcher sticks).

/** Where photos are served from when not this origin (lib/pets/present.ts petView): a CDN or bucket, or the public name. */
function photoOrigins(): string {
  const { PHOTO_BASE_URL, PUBLIC_BASE_URL } = env();
  const base = PHOTO_BASE_URL || PUBLIC_BASE_URL;
  return base ? ` ${new URL(base).origin}` : "";
}

/**
 * An animal's page may show its video in YouTube's or Vimeo's
 * privacy-enhanced player (components/pets/pet-video.tsx, loaded only when
 * pressed): those two players, and only there, may be framed. Every other
 * page keeps frames to its own origin (default-src).
 */
const ANIMAL_PAGE = /^\/pets\/[^/]+\/?$/;

function contentSecurityPolicy(nonce: string, pathname: string): string {
  const dev = env().NODE_ENV === "development";
  return [
    "default-src 'self'",
    // 'strict-dynamic' lets Next's nonce'd bootstrap load its own chunks;
    // development needs eval for fast refresh.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${photoOrigins()}`,
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(ANIMAL_PAGE.test(pathname) ? [`frame-src ${VIDEO_PLAYER_ORIGINS.join(" ")}`] : []),
  ].join("; ");
}

const PREFETCH_HEADER = "next-router-prefetch";

/**
 * The request as the page's render may see it: the client's copies of our
 * internal headers removed (scripts/server.ts already did; this holds behind
 * any server), except the socket's address, which the server itself set.
 */
function withoutClientInternalHeaders(request: NextRequest): Headers {
  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) if (isInternalRequestHeader(name) && name !== SOCKET_ADDRESS_HEADER) headers.delete(name);
  return headers;
}

export async function proxy(request: NextRequest) {
  const { locale, path } = splitLocale(request.nextUrl.pathname);
  const remembered = request.cookies.get(LOCALE_COOKIE)?.value;
  // The router's prefetch of a page (next/link): it goes through everything
  // here like any request (the headers, the language, the internal headers
  // set by us alone), save the redirect and the session, which belong to a
  // visit (and so does the language cookie): the page that prefetches was itself served here, with them.
  const prefetch = request.headers.has(PREFETCH_HEADER);
  if (!prefetch && request.nextUrl.pathname === "/" && remembered === undefined && request.method === "GET") {
    const preferred = preferredLocale(request.headers.get("accept-language"));
    if (preferred !== DEFAULT_LOCALE) {
      const to = new URL(localePath(preferred, "/") + request.nextUrl.search, request.url);
      const redirect = NextResponse.redirect(to, 307);
      redirect.headers.set("Vary", "Accept-Language, Cookie");
      redirect.cookies.set(LOCALE_COOKIE, preferred, { path: "/", maxAge: 60 * 60 * 24 * 365, sameSite: "lax" });
      return redirect;
    }
  }

  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, path);
  const origin = requestOrigin(request);
  const requestHeaders = withoutClientInternalHeaders(request);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set(PATHNAME_HEADER, path);
  requestHeaders.set(LOCALE_HEADER, locale);
  requestHeaders.set(ORIGIN_HEADER, origin);
  requestHeaders.set("Content-Security-Policy", csp);

  let setCookie: string | undefined;
  try {
    const minted = prefetch ? null : await ensureBrowserSession(readSessionCookie(request), now());
    if (minted) {
      const name = sessionCookieName();
      setCookie = sessionCookie(minted.token, { expires: minted.expiresAt, origin });
      // The page being rendered right now already sees the new session.
      const others = (request.headers.get("cookie") ?? "").split(";").filter((c) => c.trim() && !c.trim().startsWith(`${name}=`));
      requestHeaders.set("cookie", [...others, `${name}=${minted.token}`].join("; "));
    }
  } catch {
    // Database down: the page still renders and shows its error state; the
    // session is minted on a later visit.
  }

  const response =
    locale === DEFAULT_LOCALE
      ? NextResponse.next({ request: { headers: requestHeaders } })
      : NextResponse.rewrite(new URL(path + request.nextUrl.search, request.url), { request: { headers: requestHeaders } });
  // A prefetch is no visit: the switcher's link to the other language, prefetched, must not change the language remembered.
  if (!prefetch && remembered !== locale) {
    response.cookies.set(LOCALE_COOKIE, locale, { path: "/", maxAge: 60 * 60 * 24 * 365, sameSite: "lax" });
  }
  response.headers.set("Content-Security-Policy", csp);
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  response.headers.set("X-Frame-Options", "DENY");
  // The browse and shelters pages' "Use my location" asks for the position
  // (only when pressed); nothing else, and no embedded frame, may.
  response.headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(self)");
  for (const [name, value] of Object.entries(hstsHeader(origin))) response.headers.set(name, value);
  if (setCookie) response.headers.append("Set-Cookie", setCookie);
  return response;
}

export const config = {
  // Every page, prefetches included (a matcher that skipped them, as Next's
  // CSP example does, left English prefetches without the security headers
  // and with the client's own x-petstore-* headers reaching the render). Not
  // the API, which has its own headers and authenticates itself, nor the
  // health checks, which must stay dependency-free and cheap, nor images
  // (photo files, drawings), which need no session.
  matcher: ["/((?!v1(?:/|$)|healthz$|readyz$|photos/|pictures/|_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|jpg|webp|ico|txt)$).*)"],
};
