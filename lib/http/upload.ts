import { Readable } from "node:stream";
import { Busboy } from "@fastify/busboy";
import { ApiError } from "@/lib/http/errors";
import { MAX_UPLOAD_BYTES } from "@/lib/photos/limits";

// Reading an uploaded photo: either a multipart/form-data form (field
// `file`, optional field `alt`), as a browser's form or `curl -F` sends it,
// or the image itself as the body. Streamed in and counted, so an oversized
// upload is refused as soon as it passes the limit (or at once, when its
// Content-Length says so) rather than after buffering all of it. What the
// bytes are is decided later by decoding them (lib/photos/process.ts),
// never by a Content-Type or a file name.

export { MAX_UPLOAD_BYTES };
/** A multipart envelope's own bytes (boundaries, part headers, the alt field) on top of the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

export interface PhotoUpload {
  bytes: Buffer;
  /** The multipart `alt` field as sent (validated by the caller), when there was one. */
  alt?: string;
}

function tooLarge(): ApiError {
  return new ApiError(413, "payload_too_large", `The photo is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. Send a smaller one (a phone photo is usually 2 to 6 MB).`);
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
  if (!request.body) throw missingFile();
  return multipart ? readMultipart(request.body, type) : { bytes: await readRaw(request.body) };
}

async function readRaw(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
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

function readMultipart(body: ReadableStream<Uint8Array>, contentType: string): Promise<PhotoUpload> {
  return new Promise<PhotoUpload>((resolve, reject) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: { "content-type": contentType },
        limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 4096, headerPairs: 20 },
      });
    } catch {
      reject(new ApiError(400, "invalid_body", "The multipart/form-data body has no boundary in its Content-Type."));
      return;
    }
    const input = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
    let settled = false;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      input.destroy();
      reject(error);
    };
    let file: Buffer | undefined;
    let alt: string | undefined;
    let pending: Promise<void> = Promise.resolve();

    parser.on("file", (field, stream) => {
      if (field !== "file") {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(tooLarge()));
      pending = new Promise<void>((done) =>
        stream.on("end", () => {
          if (!stream.truncated) file = Buffer.concat(chunks);
          done();
        }),
      );
    });
    parser.on("field", (field, value, _nameTruncated, valueTruncated) => {
      if (field !== "alt") return;
      if (valueTruncated) fail(new ApiError(400, "invalid_body", "The alt text is too long.", [{ field: "alt", issue: "must be at most 300 characters" }]));
      alt = value;
    });
    parser.on("error", () => fail(new ApiError(400, "invalid_body", "The multipart/form-data body is malformed.")));
    parser.on("finish", () => {
      void pending.then(() => {
        if (settled) return;
        if (!file?.length) return fail(missingFile());
        settled = true;
        resolve({ bytes: file, ...(alt !== undefined ? { alt } : {}) });
      });
    });
    input.on("error", () => fail(new ApiError(400, "invalid_body", "The upload was interrupted.")));
    input.pipe(parser);
  });
}
