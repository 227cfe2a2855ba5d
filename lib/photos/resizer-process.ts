/**
 * The resizer: a child process of each server process (started by
 * lib/photos/resizer.ts) that turns checked uploads into variants. It runs
 * at a lower CPU priority than its parent, so that on a busy machine the
 * web server's requests get the cores first and photos take what is left.
 *
 * Messages (IPC, advanced serialization, so bytes travel as bytes): it
 * says `{ ready }` once it listens; then in `{ id, bytes }`, out
 * `{ id, photo }` or `{ id, error }`. It exits when its parent disconnects.
 */
import fs from "node:fs";
import os from "node:os";
import v8 from "node:v8";
import type { ProcessedPhoto } from "@/lib/photos/variants";

export interface ResizeRequest {
  id: number;
  bytes: Uint8Array;
}

/** What bounds this process's memory, as it sees them (lib/photos/resizer.ts sets them; its tests read them). */
export interface ResizerLimits {
  heapLimitMb: number;
  vipsCache: { memory: number; files: number; items: number };
  vipsConcurrency: number;
}

export type ResizeReply = { ready: true; limits: ResizerLimits } | { id: number; photo: ProcessedPhoto } | { id: number; error: string };

/**
 * On Linux a nice value belongs to a thread, and a new thread starts with
 * its creator's: every thread there is now (V8's helpers included) is
 * lowered, and those libvips and libuv start later inherit it from them.
 */
function lowerPriority(nice: number): void {
  let threads: string[] = [];
  try {
    threads = fs.readdirSync("/proc/self/task");
  } catch {
    // Not Linux: the nice value is the process's.
  }
  if (!threads.length) return os.setPriority(0, nice);
  for (const tid of threads) {
    try {
      os.setPriority(Number(tid), nice);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}

// Its one argument: the nice value (PHOTO_RESIZER_NICE, read by the parent).
lowerPriority(Number(process.argv[2] ?? 0));
// Loaded only now, so that the threads sharp starts are born at the lower priority.
const { makeVariants } = await import("@/lib/photos/variants");
const { default: sharp } = await import("sharp");

const send = (reply: ResizeReply) => process.send!(reply);

process.on("message", async (request: ResizeRequest) => {
  const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
  try {
    send({ id: request.id, photo: await makeVariants(bytes) });
  } catch (error) {
    // Data the header did not give away as broken (truncated, corrupt).
    send({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
process.on("disconnect", () => process.exit(0));
const cache = sharp.cache();
send({
  ready: true,
  limits: {
    heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 1024 / 1024),
    vipsCache: { memory: cache.memory.max ?? 0, files: cache.files.max ?? 0, items: cache.items.max ?? 0 },
    vipsConcurrency: sharp.concurrency(),
  },
});
