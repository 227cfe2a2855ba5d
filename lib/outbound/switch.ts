import { env, type Env } from "@/lib/env";

// One switch for every outbound connection (webhook deliveries, photos an
// import names by URL): whether private and loopback addresses (and plain
// http) may be called. OUTBOUND_ALLOW_PRIVATE is its name;
// WEBHOOK_ALLOW_PRIVATE, its name before imports fetched anything, keeps
// working as an alias, so existing deployments and trials need no change.
// When both are set, OUTBOUND_ALLOW_PRIVATE wins.

export function outboundAllowPrivate(settings: Pick<Env, "OUTBOUND_ALLOW_PRIVATE" | "WEBHOOK_ALLOW_PRIVATE"> = env()): boolean {
  return settings.OUTBOUND_ALLOW_PRIVATE ?? settings.WEBHOOK_ALLOW_PRIVATE;
}
