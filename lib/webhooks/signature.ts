import { Webhook } from "standardwebhooks";

// Signing per the Standard Webhooks specification, with its reference
// library rather than by hand: `webhook-signature` is
// `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`;
// several space-separated signatures while a rotated secret overlaps, so a
// receiver holding either secret can verify.

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export function signDelivery(id: string, body: string, secrets: string[], at: Date): SignedHeaders {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(" "),
  };
}
