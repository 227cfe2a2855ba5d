import { randomUUID } from "node:crypto";

// Add an animal, retrying on network errors, 409, 429 and 5xx: the same
// Idempotency-Key on every try means it is added once, however often we retry.
export async function addAnimal(baseUrl: string, apiKey: string, animal: { name: string; categoryId: number; status?: string }) {
  const idempotencyKey = randomUUID();
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${baseUrl}/pets`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
      body: JSON.stringify(animal),
    }).catch(() => null); // the network failed: we cannot know whether it was added, so retry
    if (res?.ok) return (await res.json()) as { id: number; name: string; categoryId: number; status: string; version: number };
    const retryable = !res || res.status === 409 || res.status === 429 || res.status >= 500;
    if (!retryable || attempt === 5) throw new Error(`POST /pets: ${res ? `${res.status} ${(await res.json()).message}` : "network error"}`);
    const wait = Number(res?.headers.get("retry-after") ?? 0) * 1000 || 2 ** attempt * 250;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
