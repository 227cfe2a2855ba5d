import { Readable } from "node:stream";
import { Busboy } from "@fastify/busboy";
import { ApiError, ClientClosedRequest } from "@/lib/core/errors";
import { textError, textProblem } from "@/lib/core/text";

// A multipart/form-data form with one file (field `file`) and a few text
// fields: an import's upload (`curl -F file=@pets.csv -F dryRun=true`), a
// photo's (`curl -F file=@rex.jpg -F alt=…`, lib/http/upload.ts). Streamed
// in and counted, so a file over the limit is refused as soon as it passes
// it (or at once, when Content-Length says so), never buffered whole.

/** A multipart envelope's own bytes (boundaries, part headers, the text fields) on top of the file. */
export const MULTIPART_OVERHEAD = 64 * 1024;

export interface FormUpload {
  file: Buffer;
  /** The file name the client gave, if any (shown in lists only; never used as a path). */
  fileName: string | null;
  /** The file part's declared Content-Type, if any (for messages only: what a file is gets decided by reading it). */
  fileType: string | null;
  /** The text fields, as sent. */
  fields: Record<string, string>;
}

export interface FormLimits {
  maxFileBytes: number;
  /** The answer for a file over the limit. */
  tooLarge: () => ApiError;
  /** The text fields taken; others are refused (400), or skipped when `otherFields` is "ignore". */
  fields: readonly string[];
  otherFields?: "refuse" | "ignore";
  /** The longest a text field may be (32 KB unless said). */
  fieldBytes?: number;
  /** The answer when a field is longer (a generic one unless said). */
  fieldTooLong?: (field: string) => ApiError;
  /** The answer when no file (or an empty one) was sent. */
  missingFile?: () => ApiError;
}

const missingFormFile = () =>
  new ApiError(400, "invalid_body", "No file was sent: send it as the `file` field of a multipart/form-data form (curl -F file=@pets.csv).", [
    { field: "file", issue: "is required" },
  ]);

export async function readFormUpload(request: Request, limits: FormLimits): Promise<FormUpload> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ApiError(400, "invalid_body", "Send the file as multipart/form-data (field `file`), e.g. curl -F file=@pets.csv.", [
      { field: "file", issue: "is required" },
    ]);
  }
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limits.maxFileBytes + MULTIPART_OVERHEAD) throw limits.tooLarge();
  if (!request.body) throw (limits.missingFile ?? missingFormFile)();
  return readMultipart(request.body, type, limits);
}

/** Reads a multipart/form-data body whose Content-Type (with its boundary) is `contentType`. */
export function readMultipart(body: ReadableStream<Uint8Array>, contentType: string, limits: FormLimits): Promise<FormUpload> {
  return new Promise<FormUpload>((resolve, reject) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: { "content-type": contentType },
        limits: {
          fileSize: limits.maxFileBytes,
          files: 1,
          fields: limits.fields.length + 2,
          parts: limits.fields.length + 4,
          fieldSize: limits.fieldBytes ?? 32 * 1024,
          headerPairs: 20,
        },
      });
    } catch {
      reject(new ApiError(400, "invalid_body", "The multipart/form-data body has no boundary in its Content-Type."));
      return;
    }
    const input = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
    let settled = false;
    const fail = (error: ApiError | ClientClosedRequest) => {
      if (settled) return;
      settled = true;
      input.destroy();
      reject(error);
    };
    let file: Buffer | undefined;
    let fileName: string | null = null;
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    let pending: Promise<void> = Promise.resolve();

    let fileType: string | null = null;
    parser.on("file", (field, stream, filename, _encoding, mimeType) => {
      if (field !== "file") {
        stream.resume();
        return;
      }
      fileName = filename ? filename.slice(0, 255) : null;
      fileType = mimeType ? mimeType.slice(0, 100) : null;
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(limits.tooLarge()));
      pending = new Promise<void>((done) =>
        stream.on("end", () => {
          if (!stream.truncated) file = Buffer.concat(chunks);
          done();
        }),
      );
    });
    parser.on("field", (field, value, _nameTruncated, valueTruncated) => {
      if (!limits.fields.includes(field)) {
        if (limits.otherFields === "ignore") return;
        return fail(
          new ApiError(400, "invalid_body", `"${field.slice(0, 40)}" is not a field of this form (file, ${limits.fields.join(", ")}).`, [
            { field: field.slice(0, 40), issue: "is not a field of this form" },
          ]),
        );
      }
      if (valueTruncated)
        return fail(limits.fieldTooLong?.(field) ?? new ApiError(400, "invalid_body", `The field ${field} is too long.`, [{ field, issue: "is too long" }]));
      if (Object.hasOwn(fields, field))
        return fail(new ApiError(400, "invalid_body", `The field ${field} is given more than once.`, [{ field, issue: "must be given at most once" }]));
      // The rule of every request's text (lib/core/text.ts); the decoder already made bad UTF-8 U+FFFD.
      const problem = textProblem(value);
      if (problem) return fail(textError("invalid_body", [{ field, issue: problem }]));
      fields[field] = value;
    });
    parser.on("error", () => fail(new ApiError(400, "invalid_body", "The multipart/form-data body is malformed.")));
    parser.on("finish", () => {
      void pending.then(() => {
        if (settled) return;
        if (!file?.length) return fail((limits.missingFile ?? missingFormFile)());
        settled = true;
        resolve({ file, fileName, fileType, fields: { ...fields } });
      });
    });
    // The body streams from the client's connection: an error here is the client going away mid-upload (499, not our 400).
    input.on("error", (error) => fail(new ClientClosedRequest(error)));
    input.pipe(parser);
  });
}
