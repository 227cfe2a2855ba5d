import { readChunk } from "@/lib/http/body";
import { ApiError } from "@/lib/core/errors";
import { MULTIPART_OVERHEAD, readMultipart } from "@/lib/http/form-upload";
import { MAX_UPLOAD_BYTES, PHOTO_MEDIA_TYPES } from "@/lib/photos/limits";

// Reading an uploaded photo: either a multipart/form-data form (field
// `file`, optional field `alt`), as a browser's form or `curl -F` sends it,
// or the image itself as the body. Streamed in and counted, so an oversized
// upload is refused as soon as it passes the limit (or at once, when its
// Content-Length says so) rather than after buffering all of it. What the
// bytes are is decided later by decoding them (lib/photos/process.ts),
// never by a Content-Type or a file name.

export interface PhotoUpload {
  bytes: Buffer;
  /** The multipart `alt` field as sent (validated by the caller), when there was one. */
  alt?: string;
  /** The type the client declared for the image (the body's, or the form's file part's): named when it is refused. */
  contentType: string | null;
}

/** What a photo sent as the body itself may declare: an image type, or plain bytes. */
const RAW_TYPE = /^(?:image\/[\w.+-]+|application\/octet-stream)\s*(?:;.*)?$/i;

/** How to send a photo, for the 415s: the one sentence every refusal of a type ends with. */
const PHOTO_TYPES_ACCEPTED = `multipart/form-data (the photo in its \`file\` field), or the image as the body with Content-Type ${PHOTO_MEDIA_TYPES.join(", ")} or application/octet-stream`;

function tooLarge(): ApiError {
  return new ApiError(
    413,
    "payload_too_large",
    `The photo is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. Send a smaller one (a phone photo is usually 2 to 6 MB).`,
  );
}

function missingFile(): ApiError {
  return new ApiError(400, "invalid_body", "No photo was sent: send the image as the body, or as the `file` field of a multipart/form-data form.", [
    { field: "file", issue: "is required" },
  ]);
}

export async function readPhotoUpload(request: Request): Promise<PhotoUpload> {
  const type = request.headers.get("content-type") ?? "";
  const multipart = /^multipart\/form-data\b/i.test(type);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_UPLOAD_BYTES + (multipart ? MULTIPART_OVERHEAD : 0)) throw tooLarge();
  if (!multipart && type && !RAW_TYPE.test(type)) {
    // Neither the form nor an image: a generated client that sent something else ([object Object] as text/plain).
    throw new ApiError(
      415,
      "unsupported_media_type",
      `Received Content-Type ${JSON.stringify(type.slice(0, 100))}, which is not a photo upload. Send ${PHOTO_TYPES_ACCEPTED}.`,
    );
  }
  if (!request.body) throw missingFile();
  if (!multipart) return { bytes: await readRaw(request.body), contentType: type || null };
  const form = await readMultipart(request.body, type, {
    maxFileBytes: MAX_UPLOAD_BYTES,
    tooLarge,
    missingFile,
    fields: ["alt"],
    // A browser's form may carry other fields (a submit button's): not ours to refuse.
    otherFields: "ignore",
    fieldBytes: 4096,
    fieldTooLong: () => new ApiError(400, "invalid_body", "The alt text is too long.", [{ field: "alt", issue: "must be at most 300 characters" }]),
  });
  return { bytes: form.file, contentType: form.fileType, ...(form.fields.alt !== undefined ? { alt: form.fields.alt } : {}) };
}

async function readRaw(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await readChunk(reader);
    if (done) break;
    size += value.byteLength;
    if (size > MAX_UPLOAD_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (size === 0) throw missingFile();
  return Buffer.concat(chunks);
}
