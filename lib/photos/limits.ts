// What an upload may be, in one light module (no sharp): the processing
// (lib/photos/process.ts), the API's messages and the OpenAPI document read it.

export const PHOTO_FORMATS = ["JPEG", "PNG", "WebP", "AVIF"] as const;
/** Their media types: what a photo sent as the body itself may declare (or application/octet-stream). */
export const PHOTO_MEDIA_TYPES = ["image/jpeg", "image/png", "image/webp", "image/avif"] as const;
/** Over this, an image is refused from its header, before its pixels are decoded (a decompression bomb). */
export const MAX_PHOTO_PIXELS = 40_000_000;
/** The widths photos are resized to (never enlarged). */
export const VARIANT_WIDTHS = [320, 640, 1280] as const;
/** Over this, an upload is refused (413) while it streams in; the staff page checks it before sending. */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
