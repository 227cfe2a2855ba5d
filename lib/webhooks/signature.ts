import { Webhook } from "standardwebhooks";
import { setBounded } from "@/lib/bounded-map";

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

/** Signers by secret: one is made per secret, not per delivery (it decodes the secret's key once). */
const signers = new Map<string, Webhook>();
const SIGNERS_MAX = 1_000;

function signerFor(secret: string): Webhook {
  let signer = signers.get(secret);
  if (!signer) {
    signer = new Webhook(secret);
    setBounded(signers, secret, signer, SIGNERS_MAX);
  }
  return signer;
}

export function signDelivery(id: string, body: string, secrets: string[], at: Date): SignedHeaders {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => signerFor(secret).sign(id, at, body)).join(" "),
  };
}
