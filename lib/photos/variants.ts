import { createHash } from "node:crypto";
import sharp, { type Metadata } from "sharp";
import { MAX_PHOTO_PIXELS, VARIANT_WIDTHS } from "@/lib/photos/limits";

// The heavy half of photo processing: decoding every pixel and encoding the
// WebP variants. It runs in the resizer process (lib/photos/resizer.ts), at
// a lower CPU priority than the web server, never in a request's process.
// Variants are WebP only: AVIF cost about 1.5 s of a core per 12-megapixel
// photo here, 4-5 times WebP's, for files about a quarter smaller.

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

// One libvips thread per image, one image at a time per resizer: the
// resizer only takes CPU the web server leaves. No cache: an upload is never
// read twice, caching would only hold memory.
sharp.concurrency(1);
sharp.cache(false);

const keyOf = (bytes: Buffer) => `${createHash("sha256").update(bytes).digest("base64url")}.webp`;

/**
 * Upright, metadata-free variants of an image whose header was already
 * checked (lib/photos/process.ts). Throws on data that does not decode.
 */
export async function makeVariants(bytes: Buffer): Promise<ProcessedPhoto> {
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
}

/** Width and height as displayed: EXIF orientations 5 to 8 turn the image a quarter. */
function orientedSize(meta: Metadata): { width: number; height: number } {
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  return (meta.orientation ?? 1) >= 5 ? { width: h, height: w } : { width: w, height: h };
}
