import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { expandIpv6 } from "@/lib/core/client";
import { logger } from "@/lib/log";

// Where any outbound connection may go (SSRF): webhooks, and the photos an
// import names by URL. Someone else chooses the URL, and our servers
// call it from inside our network: without this, an endpoint on
// http://169.254.169.254/ (cloud metadata), http://10.0.0.5:5432/ or
// http://localhost:3000/ would make us attack ourselves. The host is
// resolved and every address checked, at registration (400) and again at
// each delivery (DNS can change: a name that was public may point inside
// later); the delivery then connects to the very address that was checked,
// never to a second lookup (DNS rebinding).

export type UrlRefusal =
  | "scheme" // http:// where https:// is required
  | "unresolvable"
  | "not_public" // loopback, private, unique-local, shared, documentation, reserved (allowed with OUTBOUND_ALLOW_PRIVATE, alias WEBHOOK_ALLOW_PRIVATE)
  | "never"; // link-local (cloud metadata), unspecified, multicast, broadcast, translation and tunnel ranges: never, whatever the setting

export class OutboundUrlError extends Error {
  constructor(
    readonly reason: UrlRefusal,
    message: string,
    /**
     * For the log only, never an answer or a stored report: why a named host
     * was refused (the resolver's error code, the addresses it gave).
     */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "OutboundUrlError";
  }
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: one that passed the check. */
  address: string;
  family: 4 | 6;
}

function blockList(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const [entries, family] of [
    [v4, "ipv4"],
    [v6, "ipv6"],
  ] as const) {
    for (const entry of entries) {
      const [net, bits] = entry.split("/");
      list.addSubnet(net!, Number(bits), family);
    }
  }
  return list;
}

/**
 * Cloud providers' instance metadata services (credentials, user data) that
 * sit outside link-local, so the ranges below would only call them "not
 * public", which OUTBOUND_ALLOW_PRIVATE (a development switch that a
 * misconfigured production may carry) lets through. Never, whatever the
 * setting. 169.254.169.254 (AWS, GCP, Azure, ...) is link-local already.
 */
const CLOUD_METADATA_V4 = [
  "100.100.100.200/32", // Alibaba Cloud (in the shared address space)
  "192.0.0.192/32", // Oracle Cloud (in the IETF protocol assignments)
];
const CLOUD_METADATA_V6 = [
  "fd00:ec2::254/128", // AWS's metadata service over IPv6 (Nitro), in the unique-local range
  "fd00:ec2::253/128", // AWS's DNS resolver, which answers for the VPC's internal names
];

/**
 * Refused always: nothing legitimate listens there for us, and some of it
 * (169.254.169.254) is dangerous. That includes the IPv6 ranges that carry
 * a packet on to an IPv4 address we cannot judge from here: local-use NAT64
 * (64:ff9b:1::/48, RFC 8215, where the IPv4 address sits wherever the
 * operator's prefix length puts it), 6to4 (2002::/16, deprecated by RFC 7526)
 * and Teredo (2001::/32). A webhook receiver has no reason to be behind one.
 * The well-known NAT64 prefix 64:ff9b::/96 is different: the IPv4 address is
 * always its last 32 bits, and it is how a server on an IPv6-only network
 * reaches a public IPv4 receiver, so it is judged by that address instead
 * (embeddedIpv4), exactly as the address itself would be.
 */
const NEVER = blockList(
  ["0.0.0.0/8", "169.254.0.0/16", "224.0.0.0/4", "255.255.255.255/32", ...CLOUD_METADATA_V4],
  ["::/128", "fe80::/10", "ff00::/8", "64:ff9b:1::/48", "2002::/16", "2001::/32", ...CLOUD_METADATA_V6],
);

/** Not on the public internet (IANA special-purpose registries); allowed only with OUTBOUND_ALLOW_PRIVATE (or its alias WEBHOOK_ALLOW_PRIVATE). */
const NOT_PUBLIC = blockList(
  [
    "10.0.0.0/8",
    "100.64.0.0/10", // shared address space (carrier-grade NAT)
    "127.0.0.0/8",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.88.99.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "240.0.0.0/4",
  ],
  [
    "::1/128",
    "::/96", // IPv4-compatible (deprecated)
    "100::/64", // discard
    "2001::/23", // IETF protocol assignments (ORCHID, ...; Teredo's 2001::/32 is in NEVER)
    "2001:db8::/32", // documentation
    "fc00::/7", // unique-local
    "fec0::/10", // site-local (deprecated)
  ],
);

/** The IPv4 address an IPv6 one stands for (IPv4-mapped ::ffff:a.b.c.d, well-known NAT64 64:ff9b::a.b.c.d), if any. */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address).map((g) => parseInt(g, 16));
  const head = groups.slice(0, 6);
  const mapped = head.slice(0, 5).every((g) => g === 0) && head[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && head.slice(2).every((g) => g === 0);
  if (!mapped && !nat64) return null;
  const [a, b] = [groups[6]!, groups[7]!];
  return [a >> 8, a & 0xff, b >> 8, b & 0xff].join(".");
}

/** Why an address may not be called, or null when it may. */
export function addressRefusal(address: string, allowPrivate: boolean): UrlRefusal | null {
  const family = isIP(address);
  if (!family) return "never";
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const [candidate, type] = v4 ? [v4, "ipv4" as const] : [address, "ipv6" as const];
  if (NEVER.check(candidate, type)) return "never";
  if (!allowPrivate && NOT_PUBLIC.check(candidate, type)) return "not_public";
  return null;
}

const REFUSAL_TEXT: Record<Exclude<UrlRefusal, "scheme" | "unresolvable">, string> = {
  not_public: "is not a public address (loopback, private, shared or reserved)",
  never: "is not a public address (link-local, unspecified, multicast, or a translation or tunnel range)",
};

export interface GuardOptions {
  allowPrivate: boolean;
  /** What is refused, in the message's words ("webhooks are only sent to public addresses"); webhooks' wording by default. */
  refusal?: string;
  /** Plain http to public addresses too (fetching public photos; a webhook's signed body needs https). */
  allowHttp?: boolean;
  /** For tests: resolve names another way. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/**
 * A named host refused: one message whether the name does not resolve or
 * resolves inside, so neither the answer nor anything stored for the caller
 * (webhook deliveries, an import's report, a listing upload's error) tells
 * which. "could not be resolved" against "is not a public address" told
 * anyone with a webhooks:manage key or an import file which internal names
 * exist (db.internal, redis.internal), and "resolves to 10.0.0.5" would map
 * them. The difference goes to the operators' log only.
 */
function refusedHost(host: string, reason: UrlRefusal, detail: string, refusalText: string): OutboundUrlError {
  // "resolution", not "detail": the logger drops every field named detail (a database error's row).
  logger().info({ host, reason, resolution: detail }, "outbound host refused");
  return new OutboundUrlError(reason, `The host "${host}" does not resolve to a public address: ${refusalText}.`, detail);
}

const defaultResolve = (host: string) => lookup(host, { all: true, verbatim: true });

/**
 * Checks an outbound URL and resolves its host: every address it resolves to
 * must be allowed (a name that also points inside is refused). Returns the
 * address to connect to; throws OutboundUrlError otherwise.
 */
export async function checkOutboundTarget(raw: string, options: GuardOptions): Promise<CheckedTarget> {
  const refusalText = options.refusal ?? "webhooks are only sent to public addresses";
  // A host name that looks like a host to a pattern but not to the URL parser ("ftp.shelter.101": a
  // numeric last label is read as IPv4) is refused as one that cannot be reached, not thrown as a 500.
  if (!URL.canParse(raw)) throw new OutboundUrlError("unresolvable", "The address cannot be read as a URL: its host is not a valid host name.");
  const url = new URL(raw);
  if (url.protocol !== "https:" && !((options.allowPrivate || options.allowHttp) && url.protocol === "http:")) {
    throw new OutboundUrlError("scheme", "The URL must use https.");
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (options.resolve ?? defaultResolve)(host);
    } catch (error) {
      throw refusedHost(host, "unresolvable", `does not resolve (${(error as { code?: string }).code ?? "error"})`, refusalText);
    }
    if (!addresses.length) throw refusedHost(host, "unresolvable", "resolves to no address", refusalText);
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, options.allowPrivate);
    if (!refusal) continue;
    // An address the caller wrote may be described; what a name resolves to may not.
    if (address === host) throw new OutboundUrlError(refusal, `The address ${address} ${REFUSAL_TEXT[refusal as keyof typeof REFUSAL_TEXT]}: ${refusalText}.`);
    throw refusedHost(host, refusal, `resolves to ${addresses.map((a) => a.address).join(", ")} (${address}: ${refusal})`, refusalText);
  }
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
