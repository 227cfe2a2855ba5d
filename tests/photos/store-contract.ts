import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PhotoStore } from "@/lib/photos/store-interface";

/** What every photo store must do, run against each implementation. */
export function photoStoreContract(name: string, makeStore: () => Promise<{ store: PhotoStore; cleanup(): Promise<void> }>) {
  describe(`photo store contract: ${name}`, () => {
    let store: PhotoStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await makeStore());
    });
    afterAll(async () => cleanup());

    const key = () => `${randomBytes(32).toString("base64url").slice(0, 43)}.webp`;
    const file = (size = 1000) => ({ bytes: randomBytes(size), contentType: "image/webp" });

    it("gives back what was put, byte for byte, with its type", async () => {
      const k = key();
      const f = file();
      await store.put(k, f);
      expect(await store.get(k)).toEqual(f);
    });

    it("has nothing under an unknown key", async () => {
      expect(await store.get(key())).toBeNull();
    });

    it("takes the same key twice without harm", async () => {
      const k = key();
      const f = file();
      await store.put(k, f);
      await store.put(k, f);
      expect(await store.get(k)).toEqual(f);
    });

    it("deletes, ignoring keys it does not have and empty lists", async () => {
      const k = key();
      await store.put(k, file());
      await store.delete([k, key()]);
      await store.delete([]);
      expect(await store.get(k)).toBeNull();
    });

    it("round-trips 3 MB exactly, and 20 files at once", async () => {
      const big = file(3 * 1024 * 1024);
      const k = key();
      await store.put(k, big);
      expect((await store.get(k))!.bytes.equals(big.bytes)).toBe(true);
      const many = Array.from({ length: 20 }, () => ({ k: key(), f: file(5000) }));
      await Promise.all(many.map(({ k, f }) => store.put(k, f)));
      const back = await Promise.all(many.map(({ k }) => store.get(k)));
      expect(back.map((b) => b?.bytes.toString("hex"))).toEqual(many.map(({ f }) => f.bytes.toString("hex")));
    });
  });
}
