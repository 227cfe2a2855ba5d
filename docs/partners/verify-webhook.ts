import http from "node:http";
import { Webhook } from "standardwebhooks";

// A webhook receiver: verify the signature over the raw body (with the
// secret POST /webhooks gave you), skip events already handled (retries
// carry the same webhook-id), and answer 2xx within 10 seconds.
export function webhookReceiver(secret: string, onEvent: (event: { id: string; type: string; data: unknown }) => Promise<void>) {
  const verifier = new Webhook(secret);
  const handled = new Set<string>(); // in production: a table with a unique key on the id
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      let event: { id: string; type: string; data: unknown };
      try {
        event = verifier.verify(Buffer.concat(chunks).toString("utf8"), req.headers as Record<string, string>) as typeof event;
      } catch {
        res.writeHead(400).end(); // not from Petstore, altered, or too old
        return;
      }
      if (!handled.has(event.id)) {
        await onEvent(event);
        handled.add(event.id);
      }
      res.writeHead(204).end();
    });
  });
}
