import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { checkOutboundTarget, OutboundUrlError, type CheckedTarget, type GuardOptions } from "@/lib/outbound/address-guard";

// A GET of someone else's URL (a photo an import file names), through the
// outbound address guard: the address is checked and then connected to (no
// second DNS answer), every redirect is checked again as if it were the
// first URL, and the size and time are bounded, so a file cannot make us
// read our own network, hang a job, or fill memory.

export interface FetchLimits {
  maxBytes: number;
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  maxRedirects: number;
}

export const PHOTO_FETCH_LIMITS: FetchLimits = { maxBytes: 15 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 };

const USER_AGENT = "Petstore-Import/1.0";

/** Why a fetch failed, in words a report can show. */
export class FetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FetchError";
  }
}

function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all)
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else (callback as (err: null, address: string, family: number) => void)(null, target.address, target.family);
  };
}

type Answer = { redirect: string } | { bytes: Buffer; contentType: string | null };

function get(target: CheckedTarget, limits: FetchLimits, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = (target.url.protocol === "https:" ? https : http).request(target.url, {
      method: "GET",
      agent: false,
      lookup: pinnedLookup(target),
      headers: { "user-agent": USER_AGENT, accept: "image/*" },
      signal,
    });
    request.on("error", (error) => reject(signal.aborted ? signal.reason : error));
    request.once("response", (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        return resolve({ redirect: new URL(response.headers.location, target.url).toString() });
      }
      if (status < 200 || status >= 300) {
        response.resume();
        return reject(new FetchError(`answered ${status}`));
      }
      const declared = Number(response.headers["content-length"] ?? NaN);
      if (declared > limits.maxBytes) {
        response.destroy();
        return reject(new FetchError(`is larger than ${limits.maxBytes / 1024 / 1024} MB`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          response.destroy();
          reject(new FetchError(`is larger than ${limits.maxBytes / 1024 / 1024} MB`));
          return;
        }
        chunks.push(chunk);
      });
      response.once("end", () => resolve({ bytes: Buffer.concat(chunks), contentType: response.headers["content-type"] ?? null }));
      response.once("error", (error) => reject(signal.aborted ? signal.reason : error));
    });
    request.end();
  });
}

/**
 * The body of a URL: public addresses only (unless the outbound switch
 * allows private ones), at most `maxRedirects` redirects, each checked.
 * Throws FetchError (or OutboundUrlError) with a message fit for a report.
 */
export async function fetchOutbound(
  url: string,
  guard: GuardOptions,
  limits: FetchLimits = PHOTO_FETCH_LIMITS,
): Promise<{ bytes: Buffer; contentType: string | null; url: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new FetchError(`did not answer within ${limits.timeoutMs / 1000} s`)), limits.timeoutMs);
  try {
    let current = url;
    for (let hop = 0; ; hop++) {
      let parsed: URL;
      try {
        parsed = new URL(current);
      } catch {
        throw new FetchError("is not a URL");
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new FetchError("is not an http(s) URL");
      // Photos are public files: plain http is as acceptable as https (the address is what the guard judges).
      const target = await checkOutboundTarget(parsed.toString(), { allowHttp: true, ...guard });
      const answer = await get(target, limits, controller.signal);
      if ("bytes" in answer) return { ...answer, url: current };
      if (hop >= limits.maxRedirects) throw new FetchError(`redirected more than ${limits.maxRedirects} times`);
      current = answer.redirect;
    }
  } catch (error) {
    if (controller.signal.aborted && !(error instanceof OutboundUrlError)) throw controller.signal.reason as Error;
    if (error instanceof FetchError || error instanceof OutboundUrlError) throw error;
    const code = (error as { code?: string }).code;
    throw new FetchError(`could not be fetched (${code ?? (error instanceof Error ? error.message : "error")})`);
  } finally {
    clearTimeout(timer);
  }
}
