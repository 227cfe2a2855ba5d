import { ApiError, ClientClosedRequest } from "@/lib/core/errors";
import { textError, textProblems } from "@/lib/core/text";

/** Bodies over this size are refused (413) before they are read to the end. */
export const MAX_BODY_BYTES = 64 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Reads and parses a JSON request body. Streams it in, counting bytes, so an
 * oversized or endless body costs at most MAX_BODY_BYTES of memory.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (!type || !JSON_TYPE.test(type)) {
    throw new ApiError(415, "unsupported_media_type", "Send the body as JSON with `Content-Type: application/json`.");
  }
  const tooLarge = () => new ApiError(413, "payload_too_large", `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await readChunk(reader);
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }

  const invalid = (why: string) => new ApiError(400, "invalid_json", `The request body is not valid JSON: ${why}.`);
  if (size === 0) throw invalid("it is empty");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw invalid("it is not UTF-8 text");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(error instanceof SyntaxError ? error.message : "it could not be parsed");
  }
  // Every text of every body, before its schema: no NUL, no lone surrogate (lib/core/text.ts).
  const problems = textProblems(value);
  if (problems.length) throw textError("invalid_body", problems);
  return value;
}

/**
 * The next chunk of a request's body. The body streams from the client's
 * connection, so a read fails only when the client went away mid-body.
 */
export async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (error) {
    throw new ClientClosedRequest(error);
  }
}
