// The webhooks' names for the outbound address guard, which moved to
// lib/outbound/address-guard.ts when imports began fetching photos (one
// guard for every outbound connection). Kept so code written against these
// names goes on working.
export {
  addressRefusal,
  checkOutboundTarget as checkWebhookTarget,
  OutboundUrlError as WebhookUrlError,
  type CheckedTarget,
  type GuardOptions,
  type UrlRefusal,
} from "@/lib/outbound/address-guard";
