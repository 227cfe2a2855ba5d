import { describe, expect, it } from "vitest";
import { Batcher } from "@/lib/batch";

/** A batcher whose work records each batch and answers when told to. */
function recording(maxItems?: number) {
  const batches: { key: string; items: number[]; finish: (fail?: Error) => void }[] = [];
  const batcher = new Batcher<number, string>(
    (items, key) =>
      new Promise((resolve, reject) => {
        batches.push({ key, items: [...items], finish: (fail) => (fail ? reject(fail) : resolve(items.map((i) => `${key}:${i}`))) });
      }),
    maxItems,
  );
  return { batcher, batches };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("Batcher", () => {
  it("sends the calls of one tick as one batch, and answers each with its own result", async () => {
    const { batcher, batches } = recording();
    const answers = Promise.all([1, 2, 3].map((i) => batcher.run("a", i)));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    batches[0]!.finish();
    expect(await answers).toEqual(["a:1", "a:2", "a:3"]);
  });

  it("holds calls made while a batch is in flight and sends them together when it returns, never joining the one in flight", async () => {
    const { batcher, batches } = recording();
    const first = batcher.run("a", 1);
    await tick();
    const later = Promise.all([2, 3, 4].map((i) => batcher.run("a", i)));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0]!.finish();
    expect(await first).toBe("a:1");
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    batches[1]!.finish();
    expect(await later).toEqual(["a:2", "a:3", "a:4"]);
  });

  it("keeps keys apart: each has its own batch in flight", async () => {
    const { batcher, batches } = recording();
    const answers = Promise.all([batcher.run("a", 1), batcher.run("b", 1)]);
    await tick();
    expect(batches.map((b) => [b.key, b.items])).toEqual([
      ["a", [1]],
      ["b", [1]],
    ]);
    batches.forEach((b) => b.finish());
    expect(await answers).toEqual(["a:1", "b:1"]);
  });

  it("carries at most maxItems per batch; the rest go in the batches after", async () => {
    const { batcher, batches } = recording(2);
    const answers = Promise.all([1, 2, 3, 4, 5].map((i) => batcher.run("a", i)));
    for (let i = 0; i < 3; i++) {
      await tick();
      batches.at(-1)!.finish();
    }
    expect(await answers).toEqual(["a:1", "a:2", "a:3", "a:4", "a:5"]);
    expect(batches.map((b) => b.items)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("fails every call of a failed batch, and only those", async () => {
    const { batcher, batches } = recording();
    const failing = Promise.allSettled([batcher.run("a", 1), batcher.run("a", 2)]);
    await tick();
    const next = batcher.run("a", 3);
    batches[0]!.finish(new Error("store down"));
    expect((await failing).map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await tick();
    batches[1]!.finish();
    expect(await next).toBe("a:3");
  });

  it("fails the batch when the work answers with the wrong number of results, or throws before answering", async () => {
    const short = new Batcher<number, number>(async () => [1]);
    const results = await Promise.allSettled([short.run("k", 1), short.run("k", 2)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);

    const throwing = new Batcher<number, number>(() => {
      throw new Error("synchronous");
    });
    await expect(throwing.run("k", 1)).rejects.toThrow("synchronous");
    // And it is usable afterwards.
    await expect(throwing.run("k", 2)).rejects.toThrow("synchronous");
  });
});
