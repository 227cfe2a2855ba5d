import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";
import { SOCKET_ADDRESS_HEADER } from "@/lib/core/socket-address";

// Who the client is and how it addressed us, derived in one place.
//
// The site is reached by many names (localhost, 127.0.0.1, a LAN address, a
// domain behind a load balancer), so "our own origin" is never the
// framework's configured host: it is the scheme and Host the client used.
// Behind a proxy of ours (TRUST_PROXY, and only when the socket's peer is one
// of TRUSTED_PROXIES) the X-Forwarded-* headers that proxy sets say it
// instead. Everything derived from the request's address (CSRF's own origin,
// Location and Link URLs, the OpenAPI servers default, HSTS) comes from here.

type HeaderSource = { get(name: string): string | null };

/** An IP address as counters and logs see it: no brackets, no port, IPv4-mapped IPv6 as IPv4. Null when it is not an address. */
export function normalizeAddress(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let value = raw.trim();
  if (value.length > 64) return null;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  value = value.replace(/%.*$/, ""); // a zone id (fe80::1%eth0) says nothing about the client
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  if (mapped) value = mapped[1]!;
  return isIP(value) ? value.toLowerCase() : null;
}

let cachedList: { source: string; list: BlockList } | undefined;

/** TRUSTED_PROXIES (a comma-separated list of addresses and CIDR ranges) as a BlockList. */
export function trustedProxies(source = env().TRUSTED_PROXIES): BlockList {
  if (cachedList?.source === source) return cachedList.list;
  const list = new BlockList();
  for (const entry of source
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const family = isIP(address!) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address!, family);
    else list.addSubnet(address!, Number(bits), family);
  }
  cachedList = { source, list };
  return list;
}

function isTrusted(address: string | null, list: BlockList): boolean {
  return address !== null && list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/** The socket's peer, as our HTTP server passes it on (it overwrites whatever a client sent). */
function socketAddress(headers: HeaderSource): string | null {
  return normalizeAddress(headers.get(SOCKET_ADDRESS_HEADER));
}

/** True when the request reached us through one of our own proxies, whose X-Forwarded-* headers we may believe. */
function viaTrustedProxy(headers: HeaderSource): boolean {
  return env().TRUST_PROXY && isTrusted(socketAddress(headers), trustedProxies());
}

/**
 * The client's address. Without a trusted proxy: the socket's. Behind one:
 * the rightmost X-Forwarded-For entry that is not itself a trusted proxy
 * (proxies append, so entries left of it are whatever the client sent).
 */
export function clientAddressOf(headers: HeaderSource): string {
  const socket = socketAddress(headers);
  if (!viaTrustedProxy(headers)) return socket ?? "unknown";
  const list = trustedProxies();
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").slice(-32);
  let nearest = socket!;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]);
    // Garbage where a proxy of ours should have written an address: stop at
    // the last hop we can vouch for rather than believe it.
    if (!hop) break;
    nearest = hop;
    if (!isTrusted(hop, list)) break;
  }
  return nearest;
}

export function clientAddress(request: Request): string {
  return clientAddressOf(request.headers);
}

/**
 * The counter identity of an address, short and bounded whatever the input:
 * IPv4 as is; IPv6 by its /64, since one subscriber usually holds a whole /64
 * and could otherwise rotate through addresses for fresh budgets.
 */
export function addressRateKey(address: string): string {
  if (isIP(address) === 6) {
    const groups = expandIpv6(address)
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ""));
    return `ip6:${groups.join(":")}::/64`;
  }
  return isIP(address) === 4 ? `ip:${address}` : "ip:unknown";
}

/** The eight 16-bit groups of an IPv6 address, as hex strings ("::1" -> 0,0,0,0,0,0,0,1); an embedded IPv4 tail counts as two. */
export function expandIpv6(address: string): string[] {
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms) counts as two groups.
  const expandV4 = (parts: string[]) =>
    parts.flatMap((p) => {
      if (!p.includes(".")) return [p];
      const [a, b, c, d] = p.split(".").map(Number);
      return [((a! << 8) | b!).toString(16), ((c! << 8) | d!).toString(16)];
    });
  const l = expandV4(left);
  const r = expandV4(right);
  const missing = address.includes("::") ? 8 - l.length - r.length : 0;
  return [...l, ...Array<string>(missing).fill("0"), ...r];
}

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function firstValue(header: string | null): string | undefined {
  return header?.split(",")[0]?.trim() || undefined;
}

/**
 * The origin the client addressed ("http://127.0.0.1:3000"): scheme and Host
 * as it sent them, or as our trusted proxy forwards them. `fallback` is the
 * request's own URL, used for in-process calls that carry no Host.
 */
export function clientOriginOf(headers: HeaderSource, fallback: string | URL): string {
  const base = typeof fallback === "string" ? new URL(fallback) : fallback;
  let proto = base.protocol.replace(/:$/, "");
  let host = headers.get("host") ?? undefined;
  if (viaTrustedProxy(headers)) {
    const forwardedProto = firstValue(headers.get("x-forwarded-proto"))?.toLowerCase();
    if (forwardedProto === "http" || forwardedProto === "https") proto = forwardedProto;
    host = firstValue(headers.get("x-forwarded-host")) ?? host;
  }
  if (!host || !HOST.test(host)) return base.origin;
  // Through URL so default ports and case come out the way browsers write an Origin.
  return new URL(`${proto}://${host}`).origin;
}

export function requestOrigin(request: Request): string {
  return clientOriginOf(request.headers, request.url);
}

/** The request's URL as the client addressed it (path and query kept). */
export function clientUrl(request: Request): URL {
  const url = new URL(request.url);
  const origin = clientOriginOf(request.headers, url);
  return origin === url.origin ? url : new URL(`${url.pathname}${url.search}`, origin);
}

/** Origins whose pages may send cookie-authenticated writes: the one addressed, PUBLIC_BASE_URL's, and ALLOWED_ORIGINS. */
export function ownOrigins(request: Request): Set<string> {
  const { PUBLIC_BASE_URL, ALLOWED_ORIGINS } = env();
  const origins = new Set([requestOrigin(request), ...ALLOWED_ORIGINS]);
  if (PUBLIC_BASE_URL) origins.add(new URL(PUBLIC_BASE_URL).origin);
  return origins;
}

/** HTTPS answers tell browsers to stay on HTTPS (two years; no includeSubDomains: sibling hosts are not ours to decide). */
export function hstsHeader(origin: string): Record<string, string> {
  return origin.startsWith("https:") ? { "Strict-Transport-Security": "max-age=63072000" } : {};
}
