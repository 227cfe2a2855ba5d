// Catch up on every change since the last event you processed, in order,
// each once. Store the id of each event once you have handled it, and pass
// the last one the next time (after a restart, a deploy, a week offline).
// A copy of what is listed: upsert on pet.created, pet.updated and pet.listed,
// delete on pet.unlisted (an animal that left care: no reason is given).
// The stays' events (pet.stay.*) are sent only to keys with records:read.
export type PetstoreEvent =
  | {
      id: string;
      type: "pet.created" | "pet.updated" | "pet.listed" | "pet.stay.started" | "pet.stay.ended";
      createdAt: string;
      data: {
        pet: { id: number; name: string; categoryId: number; status: string; version: number };
        previous?: Record<string, unknown>;
        stay?: { id: number; intake: { at: string; type: string; subtype: string | null }; outcome: { at: string; type: string; subtype: string | null } | null };
      };
    }
  | { id: string; type: "pet.unlisted"; createdAt: string; data: { pet: { id: number; organizationId: number } } };

export async function catchUp(baseUrl: string, apiKey: string, lastSeen: string | undefined, handle: (event: PetstoreEvent) => Promise<void>) {
  let url: string | undefined = `${baseUrl}/events?limit=100${lastSeen ? `&after=${lastSeen}` : ""}`;
  while (url) {
    const res: Response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
    // Offline longer than the 30 days events are kept: reload everything with GET /pets, then read on without `after`.
    if (res.status === 410) throw new Error("cursor_expired: resynchronise from GET /pets");
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${(await res.json()).code}`);
    for (const event of (await res.json()) as PetstoreEvent[]) {
      await handle(event);
      lastSeen = event.id; // persist it here, in the same transaction as your change if you can
    }
    url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
  }
  return lastSeen;
}
