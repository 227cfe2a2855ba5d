import sharp, { type Metadata } from "sharp";
import { ApiError } from "@/lib/core/errors";
import { MAX_PHOTO_PIXELS, PHOTO_FORMATS, PHOTO_MEDIA_TYPES } from "@/lib/photos/limits";
import { resize } from "@/lib/photos/resizer";
import type { ProcessedPhoto } from "@/lib/photos/variants";

// The bytes of an upload in, checked, upright, metadata-free WebP variants
// out. What a file is gets decided by decoding its header, never by a name
// or a Content-Type; the header is all this process reads (fast, no pixels).
// The pixels are decoded and the variants made by the resizer, a process of
// lower priority (lib/photos/resizer.ts, lib/photos/variants.ts).

// The header read below is sharp's only work in this process: no cache to keep.
sharp.cache(false);

const ACCEPTED = new Set(["jpeg", "png", "webp"]);

function unsupported(received: string | null | undefined): ApiError {
  const list = `${PHOTO_FORMATS.slice(0, -1).join(", ")} or ${PHOTO_FORMATS.at(-1)}`;
  const declared = received ? `declared as ${JSON.stringify(received.slice(0, 100))}` : "with no Content-Type";
  return new ApiError(
    415,
    "unsupported_media_type",
    `The file (${declared}) is not an image we accept: its bytes are not a ${list} image. Send a ${list} photo as ${PHOTO_MEDIA_TYPES.join(", ")} (or application/octet-stream), in a multipart/form-data form's \`file\` field or as the body.`,
  );
}

/** `received`: the Content-Type the client declared, only to name it when the bytes are refused. */
export async function processPhoto(bytes: Buffer, received?: string | null): Promise<ProcessedPhoto> {
  // The header only: format and size, before any pixel is decoded.
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupported(received);
  }
  const avif = meta.format === "heif" && meta.compression === "av1";
  if (!avif && !ACCEPTED.has(meta.format ?? "")) throw unsupported(received);
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (!pixels) throw unsupported(received);
  if (pixels > MAX_PHOTO_PIXELS) {
    throw new ApiError(
      422,
      "image_too_large",
      `The image is ${meta.width} x ${meta.height} pixels (${(pixels / 1_000_000).toFixed(1)} megapixels); at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels are accepted. Resize it and send it again.`,
    );
  }
  return resize(bytes);
}
