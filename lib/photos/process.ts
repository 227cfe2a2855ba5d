import { createHash } from "node:crypto";
import sharp, { type Metadata } from "sharp";
import { ApiError } from "@/lib/http/errors";
import { MAX_PHOTO_PIXELS, PHOTO_FORMATS, VARIANT_WIDTHS } from "@/lib/photos/limits";

// The one place that knows sharp: the bytes of an upload in, checked,
// upright, metadata-free WebP variants out. What a file is gets decided by
// decoding it, never by a name or a Content-Type. Variants are WebP only:
// AVIF cost about 1.5 s of a core per 12-megapixel photo here, 4-5 times
// WebP's, for files about a quarter smaller.

export { MAX_PHOTO_PIXELS, PHOTO_FORMATS, VARIANT_WIDTHS };

export interface PhotoVariant {
  width: number;
  height: number;
  /** `<sha256 of the bytes, base64url>.webp`: the file's name, forever. */
  key: string;
  bytes: Buffer;
  contentType: "image/webp";
}

export interface ProcessedPhoto {
  /** As displayed: after EXIF orientation is applied. */
  width: number;
  height: number;
  /** A tiny blurred image as a data: URI. */
  placeholder: string;
  /** One per VARIANT_WIDTHS entry the photo is at least as wide as (never enlarged); one at its own width when narrower than all. */
  variants: PhotoVariant[];
}

// One libvips thread per image, one image at a time per process (below):
// on two cores shared with the web server, the list's p99 must stay within
// 1.5x while clients upload 12-megapixel photos. No cache: an upload is
// never read twice, caching would only hold memory.
sharp.concurrency(1);
sharp.cache(false);

const ACCEPTED = new Set(["jpeg", "png", "webp"]);

function unsupported(): ApiError {
  const list = `${PHOTO_FORMATS.slice(0, -1).join(", ")} or ${PHOTO_FORMATS.at(-1)}`;
  return new ApiError(415, "unsupported_media_type", `The file is not an image we accept. Send a ${list} photo.`);
}

let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;

/** Photos waiting for their turn in this process (for metrics). */
export function photoQueueLength(): number {
  return waiting;
}

/** Runs photo jobs one after another, in the order they came. */
function inTurn<T>(job: () => Promise<T>): Promise<T> {
  waiting++;
  const run = queue.then(() => {
    waiting--;
    return job();
  });
  queue = run.catch(() => undefined);
  return run;
}

const keyOf = (bytes: Buffer) => `${createHash("sha256").update(bytes).digest("base64url")}.webp`;

export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  // The header only: format and size, before any pixel is decoded.
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupported();
  }
  const avif = meta.format === "heif" && meta.compression === "av1";
  if (!avif && !ACCEPTED.has(meta.format ?? "")) throw unsupported();
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (!pixels) throw unsupported();
  if (pixels > MAX_PHOTO_PIXELS) {
    throw new ApiError(
      422,
      "image_too_large",
      `The image is ${meta.width} x ${meta.height} pixels (${(pixels / 1_000_000).toFixed(1)} megapixels); at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels are accepted. Resize it and send it again.`,
    );
  }
  return inTurn(() => variantsOf(bytes));
}

async function variantsOf(bytes: Buffer): Promise<ProcessedPhoto> {
  try {
    // Decoded once, upright, at the largest width needed; the smaller
    // variants are made from that. Metadata is not copied to any output
    // (sharp writes none unless told to): no EXIF, no GPS, no ICC.
    const input = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: "error" as const };
    const base = await sharp(bytes, input)
      .rotate()
      .resize({ width: VARIANT_WIDTHS.at(-1), withoutEnlargement: true })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = base.info;
    const raw = { raw: { width, height, channels } };
    const oriented = await sharp(bytes, input).rotate().metadata();
    const displayed = orientedSize(oriented);

    const widths = VARIANT_WIDTHS.filter((w) => w <= displayed.width);
    const targets = widths.length ? widths : [displayed.width];
    const variants: PhotoVariant[] = [];
    for (const target of targets) {
      const w = Math.min(target, width);
      const out = await sharp(base.data, raw).resize({ width: w }).webp({ quality: 78, effort: 4 }).toBuffer({ resolveWithObject: true });
      variants.push({ width: out.info.width, height: out.info.height, key: keyOf(out.data), bytes: out.data, contentType: "image/webp" });
    }
    const tiny = await sharp(base.data, raw).resize({ width: 16 }).blur(0.6).webp({ quality: 40 }).toBuffer();
    return { width: displayed.width, height: displayed.height, placeholder: `data:image/webp;base64,${tiny.toString("base64")}`, variants };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // Truncated or corrupt data that the header did not give away.
    throw unsupported();
  }
}

/** Width and height as displayed: EXIF orientations 5 to 8 turn the image a quarter. */
function orientedSize(meta: Metadata): { width: number; height: number } {
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  return (meta.orientation ?? 1) >= 5 ? { width: h, height: w } : { width: w, height: h };
}
