import { spawnSync } from "node:child_process";
import fs from "node:fs";
import sharp from "sharp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { env, resetEnvCache } from "@/lib/env";
import { ApiError } from "@/lib/core/errors";
import { processPhoto } from "@/lib/photos/process";
import { resize, resizerStatus } from "@/lib/photos/resizer";

// The resizer is a real child process here: these tests start, stop and
// kill it as a busy or broken machine would.

const jpeg = (width = 800, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .toBuffer();

/** The nice value of every thread of a process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNiceValues(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    // The command name, in parentheses, may hold spaces: fields are counted after it.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const waitForExit = (pid: number) =>
  expect
    .poll(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    })
    .toBe(true);

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

function configure(vars: Record<string, string>) {
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
  resetEnvCache();
}

describe("the photo resizer", () => {
  it("makes the variants in a child process whose every thread runs at PHOTO_RESIZER_NICE", async () => {
    const photo = await processPhoto(await jpeg(1600, 1200));
    expect(photo.variants.map((v) => v.width)).toEqual([320, 640, 1280]);
    const pid = resizerStatus().pid!;
    expect(pid).not.toBe(process.pid);
    expect(env().PHOTO_RESIZER_NICE).toBeGreaterThan(0);
    // libvips has started its threads by now: they were born lowered too.
    const nice = threadNiceValues(pid);
    expect(nice.length).toBeGreaterThan(1);
    expect(new Set(nice)).toEqual(new Set([env().PHOTO_RESIZER_NICE]));
  });

  it("refuses with 415 an image whose header is sound but whose data is cut off", async () => {
    const whole = await jpeg(1600, 1200);
    const error = await apiError(processPhoto(whole.subarray(0, Math.floor(whole.length / 2))));
    expect([error.status, error.code]).toEqual([415, "unsupported_media_type"]);
    // The resizer survived it and goes on.
    expect((await processPhoto(await jpeg())).width).toBe(800);
  });

  it("answers 503 with Retry-After when a photo waits too long, stops the stalled resizer, and the next photo gets a new one", async () => {
    await processPhoto(await jpeg());
    const stalled = resizerStatus().pid!;
    // A machine too busy to give the resizer any CPU, as far as the resizer is concerned.
    process.kill(stalled, "SIGSTOP");
    const error = await apiError(resize(await jpeg(), 300));
    expect([error.status, error.code, error.headers?.["Retry-After"]]).toEqual([503, "service_unavailable", "30"]);
    await waitForExit(stalled);
    expect((await processPhoto(await jpeg())).width).toBe(800);
    expect(resizerStatus().pid).not.toBe(stalled);
  });

  it("a resizer that crashes on an image refuses that image (415); one that is killed answers 503; either way the next photo is made", async () => {
    const big = await jpeg(6000, 4000);

    // Signalled once the image is in the resizer's hands.
    const whileWorking = async (signal: NodeJS.Signals, work: Promise<unknown>) => {
      // Starting a resizer takes a while on a busy machine.
      await expect.poll(() => resizerStatus().working, { interval: 5, timeout: 20_000 }).toBe(true);
      process.kill(resizerStatus().pid!, signal);
      return apiError(work);
    };
    expect((await whileWorking("SIGSEGV", processPhoto(big))).status).toBe(415);
    const error = await whileWorking("SIGKILL", processPhoto(big));
    expect([error.status, error.code]).toEqual([503, "service_unavailable"]);

    expect((await processPhoto(await jpeg())).width).toBe(800);
  });

  it("photos sent together come back in the order they were sent, each its own", async () => {
    const sizes = [400, 700, 500, 900];
    const photos = await Promise.all(sizes.map(async (w) => processPhoto(await jpeg(w, 300))));
    expect(photos.map((p) => p.width)).toEqual(sizes);
  });

  it("an idle resizer does not keep a script alive: one that made a photo ends on its own", () => {
    const script = `
      import sharp from "sharp";
      import { processPhoto } from "@/lib/photos/process";
      const bytes = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#336699" } }).png().toBuffer();
      const photo = await processPhoto(bytes);
      console.log("made", photo.variants.length);
    `;
    const started = Date.now();
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(run.stdout.trim()).toBe("made 1");
    expect(run.status).toBe(0);
    // Well before the resizer's idle minute.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("a full queue refuses at once with 503 and Retry-After, instead of holding the upload's bytes for up to 45 s", async () => {
    configure({ PHOTO_RESIZER_QUEUE: "2" });
    await processPhoto(await jpeg());
    const stalled = resizerStatus().pid!;
    process.kill(stalled, "SIGSTOP");
    try {
      const inHand = resize(await jpeg(500, 400));
      await expect.poll(() => resizerStatus().working, { interval: 5, timeout: 20_000 }).toBe(true);
      const waiting = [resize(await jpeg(600, 400)), resize(await jpeg(700, 400))];
      const started = Date.now();
      const refused = await apiError(resize(await jpeg(800, 400)));
      expect(Date.now() - started).toBeLessThan(1_000);
      expect([refused.status, refused.code]).toEqual([503, "service_unavailable"]);
      expect(Number(refused.headers?.["Retry-After"])).toBeGreaterThan(0);
      process.kill(stalled, "SIGCONT");
      // The ones that were let in are all made.
      expect((await Promise.all([inHand, ...waiting])).map((p) => p.width)).toEqual([500, 600, 700]);
    } finally {
      process.kill(stalled, "SIGCONT");
    }
  });

  it("runs with its memory capped: a small V8 heap, no libvips cache, one libvips thread", async () => {
    await processPhoto(await jpeg());
    const { pid, limits } = resizerStatus();
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(commandLine).toContain("--max-old-space-size=128");
    expect(limits!.heapLimitMb).toBeLessThanOrEqual(256);
    expect(limits!.vipsCache).toEqual({ memory: 0, files: 0, items: 0 });
    expect(limits!.vipsConcurrency).toBe(1);
  });

  it("a resizer over PHOTO_RESIZER_MEMORY_MB is stopped: that photo is refused (422), and the next gets a new resizer", async () => {
    await processPhoto(await jpeg());
    const before = resizerStatus().pid!;
    // Less than any resizer needs at all: the one at work goes over it.
    configure({ PHOTO_RESIZER_MEMORY_MB: "64" });
    const error = await apiError(processPhoto(await jpeg(6000, 4000)));
    expect([error.status, error.code]).toEqual([422, "image_too_large"]);
    expect(error.message).toContain("more memory");
    await waitForExit(before);
    vi.unstubAllEnvs();
    resetEnvCache();
    expect((await processPhoto(await jpeg())).width).toBe(800);
    expect(resizerStatus().pid).not.toBe(before);
  });
});
