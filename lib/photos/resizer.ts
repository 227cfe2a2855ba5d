import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/core/errors";
import { onShutdown } from "@/lib/lifecycle";
import { logger } from "@/lib/log";
import type { ResizeReply, ResizeRequest, ResizerLimits } from "@/lib/photos/resizer-process";
import type { ProcessedPhoto } from "@/lib/photos/variants";

// Making a photo's variants takes about a third of a second of a core per
// 12-megapixel photo. In the server's own process (sharp's thread pool) it
// competed with requests as an equal: on two cores, four clients uploading
// took the list's p99 from 21 to 55 ms (npm run bench -- --uploads). So each
// server process hands the work to a resizer, a child process at a lower CPU
// priority (PHOTO_RESIZER_NICE): when the machine is busy, requests get the
// cores first and uploads wait; when it is idle, uploads run at full speed.
// One photo at a time per resizer, in the order they came.
//
// Both are bounded. At most PHOTO_RESIZER_QUEUE photos wait (each holds its
// upload's bytes, up to 15 MB); one more is refused at once with 503 and
// Retry-After rather than held for the 45 s a photo may wait. And the
// resizer's memory is capped: its V8 heap (--max-old-space-size and
// --max-semi-space-size; the pixels live outside it, in libvips), libvips
// keeps no cache and runs one thread (lib/photos/variants.ts), and what it
// holds in all (its resident memory, read from /proc while it works) may
// not pass PHOTO_RESIZER_MEMORY_MB: a resizer over it is stopped and the
// photo refused (422), so one image that decodes into far more memory than
// its pixel count suggests cannot take the machine's memory from the server.

/** An upload waits at most this long for its variants (queue included): under nginx's 60 s proxy timeout, so the client gets our answer. */
export const RESIZE_TIMEOUT_MS = 45_000;
/** A resizer with nothing to do for this long exits; the next photo starts another (about half a second). */
const IDLE_MS = 60_000;
/** A resizer that dies of these crashed decoding the image it was given: the image is refused, not retried. */
const CRASH_SIGNALS = new Set(["SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE"]);
/** The resizer's V8 heap (MB): it holds messages, not pixels (Buffers and libvips' memory are outside it). */
export const RESIZER_HEAP_MB = 128;
/**
 * Its young generation's semi-spaces (MB), which the heap limit adds three of
 * to the old space's: Node 24 defaults to 64 (a 320 MB heap), where Node 20
 * had 16 (176 MB). A process that holds messages gains nothing from more.
 */
const RESIZER_SEMI_SPACE_MB = 16;
/** How often a working resizer's resident memory is read. */
const MEMORY_CHECK_MS = 50;

interface Job {
  id: number;
  bytes: Buffer;
  resolve: (photo: ProcessedPhoto) => void;
  reject: (error: unknown) => void;
}

interface Resizer {
  child: ChildProcess;
  ready: Promise<void>;
  /** The job given to this resizer. */
  current?: Job;
  /** Whether `current` has been sent to the child (it may be starting still). */
  sent: boolean;
  /** What the child says bounds its memory (once ready). */
  limits?: ResizerLimits;
  /** Reads its resident memory while it works. */
  watch?: NodeJS.Timeout;
  /** Stopped for going over PHOTO_RESIZER_MEMORY_MB: the photo it had is refused. */
  overMemory?: boolean;
}

interface State {
  resizer?: Resizer;
  /** Jobs in the order they came; the first is the one the resizer has, once it has it. */
  queue: Job[];
  nextId: number;
  idleTimer?: NodeJS.Timeout;
}

// On globalThis: a development server that reloads this module must not lose track of its child.
const KEY = Symbol.for("petstore.photo-resizer");
const holder = globalThis as unknown as { [KEY]?: State };
const state = (): State => (holder[KEY] ??= { queue: [], nextId: 1 });

function full(): ApiError {
  return new ApiError(503, "service_unavailable", "Too many photos are waiting to be processed right now. Send this one again in a few seconds.", undefined, {
    "Retry-After": "10",
  });
}

function tooDemanding(limitMb: number): ApiError {
  return new ApiError(
    422,
    "image_too_large",
    `The image needs more memory to process than this server allows for one photo (${limitMb} MB). Send a smaller image (fewer pixels, or JPEG rather than PNG).`,
  );
}

/** A process's resident memory in MB, from /proc (Linux); null where it cannot be read. */
function residentMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** While the resizer works, reads its memory; over the cap it is stopped (the exit handler refuses its photo). */
function watchMemory(resizer: Resizer): void {
  clearInterval(resizer.watch);
  const check = () => {
    const pid = resizer.child.pid;
    if (!resizer.current || pid === undefined) return clearInterval(resizer.watch);
    const limit = env().PHOTO_RESIZER_MEMORY_MB;
    const used = residentMb(pid);
    if (used === null || used <= limit) return;
    clearInterval(resizer.watch);
    resizer.overMemory = true;
    logger().warn({ photoJob: resizer.current.id, residentMb: Math.round(used), limitMb: limit }, "the photo resizer went over its memory cap: stopped");
    resizer.child.kill("SIGKILL");
  };
  resizer.watch = setInterval(check, MEMORY_CHECK_MS);
  resizer.watch.unref();
  check();
}

function busy(): ApiError {
  return new ApiError(503, "service_unavailable", "Photos are taking longer than usual to process right now. Send the photo again in a minute.", undefined, {
    "Retry-After": "30",
  });
}

function undecodable(): ApiError {
  return new ApiError(415, "unsupported_media_type", "The image could not be decoded: the file is damaged or incomplete.");
}

function entry(): string {
  // Run from the project's folder (the launcher's working directory), as TypeScript through tsx, like the server.
  const file = path.join(process.cwd(), "lib", "photos", "resizer-process.ts");
  if (!fs.existsSync(file)) throw new Error(`the photo resizer is missing (${file}): run the server from the project's folder`);
  return file;
}

function start(): Resizer {
  // spawn with an IPC channel is what fork does; fork itself makes Turbopack
  // resolve the path as a module at build time (vercel/next.js#97952).
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${RESIZER_HEAP_MB}`, `--max-semi-space-size=${RESIZER_SEMI_SPACE_MB}`, "--import", "tsx", entry(), String(env().PHOTO_RESIZER_NICE)],
    {
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  let markReady: () => void;
  let failStart: (error: unknown) => void;
  const resizer: Resizer = { child, sent: false, ready: new Promise<void>((resolve, reject) => ((markReady = resolve), (failStart = reject))) };
  // Never an unhandled rejection: a job that waits on it handles it.
  resizer.ready.catch(() => undefined);

  child.on("message", (reply: ResizeReply) => {
    if ("ready" in reply) {
      resizer.limits = reply.limits;
      return markReady();
    }
    const job = resizer.current;
    if (!job || job.id !== reply.id) return; // one that timed out
    clearInterval(resizer.watch);
    resizer.current = undefined;
    resizer.sent = false;
    if ("photo" in reply) job.resolve(revive(reply.photo));
    else job.reject(undecodable());
    next();
  });
  child.once("exit", (code, signal) => {
    clearInterval(resizer.watch);
    const s = state();
    if (s.resizer === resizer) s.resizer = undefined;
    failStart(new Error(`the photo resizer exited (${signal ?? code}) before it was ready`));
    const job = resizer.current;
    if (!job) return;
    resizer.current = undefined;
    if (resizer.overMemory) job.reject(tooDemanding(env().PHOTO_RESIZER_MEMORY_MB));
    else {
      logger().error({ code, signal, photoJob: job.id }, "the photo resizer died while making variants");
      job.reject(signal && CRASH_SIGNALS.has(signal) ? undecodable() : busy());
    }
    next();
  });
  child.on("error", (error) => logger().error({ err: error }, "the photo resizer failed"));
  onShutdown("photo-resizer", async () => void child.kill("SIGTERM"));
  return resizer;
}

/** Bytes arrive as Uint8Array (structured clone): the variants are Buffers again. */
function revive(photo: ProcessedPhoto): ProcessedPhoto {
  return { ...photo, variants: photo.variants.map((v) => ({ ...v, bytes: Buffer.from(v.bytes.buffer, v.bytes.byteOffset, v.bytes.byteLength) })) };
}

/** Gives the first waiting job to the resizer (starting one if needed), or lets an idle resizer go. */
function next(): void {
  const s = state();
  if (s.resizer?.current) return;
  const job = s.queue[0];
  clearTimeout(s.idleTimer);
  if (!job) {
    const idle = s.resizer;
    if (!idle) return;
    // Neither the child nor its channel keeps this process alive while it waits (a seed, a CLI, a test ends).
    idle.child.unref();
    (idle.child.channel as { unref?: () => void } | undefined)?.unref?.();
    s.idleTimer = setTimeout(() => idle.child.connected && idle.child.disconnect(), IDLE_MS);
    s.idleTimer.unref();
    return;
  }
  s.queue.shift();
  let resizer: Resizer;
  try {
    resizer = s.resizer ??= start();
  } catch (error) {
    job.reject(error);
    return next();
  }
  resizer.current = job;
  resizer.child.ref();
  (resizer.child.channel as { ref?: () => void } | undefined)?.ref?.();
  resizer.ready.then(
    () => {
      if (resizer.current !== job) return; // timed out while the resizer started
      const request: ResizeRequest = { id: job.id, bytes: job.bytes };
      resizer.child.send(request);
      resizer.sent = true;
      watchMemory(resizer);
    },
    (error: unknown) => {
      if (resizer.current !== job) return;
      resizer.current = undefined;
      logger().error({ err: error }, "the photo resizer did not start");
      job.reject(busy());
      next();
    },
  );
}

/**
 * The variants of an image whose header was checked. At most
 * RESIZE_TIMEOUT_MS, waiting included; past that the answer is 503 (and a
 * resizer still working on it is stopped, so the work is not done for nothing).
 */
export function resize(bytes: Buffer, timeoutMs = RESIZE_TIMEOUT_MS): Promise<ProcessedPhoto> {
  const s = state();
  if (s.queue.length >= env().PHOTO_RESIZER_QUEUE) return Promise.reject(full());
  return new Promise<ProcessedPhoto>((resolve, reject) => {
    const timer = setTimeout(() => {
      const i = s.queue.indexOf(job);
      if (i >= 0) s.queue.splice(i, 1);
      else if (s.resizer?.current === job) {
        s.resizer.current = undefined;
        s.resizer.child.kill("SIGKILL");
        s.resizer = undefined;
        next();
      }
      reject(busy());
    }, timeoutMs);
    const job: Job = {
      id: s.nextId++,
      bytes,
      resolve: (photo) => (clearTimeout(timer), resolve(photo)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    };
    s.queue.push(job);
    next();
  });
}

/** The running resizer's process id, if one runs, whether it has a photo in hand, and what bounds its memory (for tests). */
export function resizerStatus(): { pid?: number; working: boolean; limits?: ResizerLimits } {
  const resizer = state().resizer;
  return { pid: resizer?.child.pid, working: Boolean(resizer?.current && resizer.sent), limits: resizer?.limits };
}
