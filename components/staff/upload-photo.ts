"use client";

import { ApiClientError } from "@/lib/site/api-error";
import type { ErrorBody } from "@/lib/core/errors";
import type { Photo } from "@/lib/pets/schemas/pet";

// One photo upload from the staff pages, as multipart/form-data (the API's
// `file` and `alt` fields). XMLHttpRequest rather than fetch: only it reports
// how much of the body has been sent, which the progress bar shows. The
// session cookie and the page's Origin go with it, as with every call.

export interface UploadProgress {
  /** Bytes sent so far and in all (the multipart body, a little more than the file). */
  loaded: number;
  total: number;
}

export function uploadPhoto(
  petId: number,
  file: File,
  alt: string,
  { onProgress, signal }: { onProgress: (progress: UploadProgress) => void; signal?: AbortSignal },
): Promise<{ photo: Photo; version: number | null }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/v1/pets/${petId}/photos`);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      // The animal's new version (ETag "N"): whatever the staff member saves
      // next names it in If-Match, even before the animal is read again.
      const etag = /^"(\d+)"$/.exec(xhr.getResponseHeader("etag") ?? "");
      if (xhr.status === 201) return resolve({ photo: body as Photo, version: etag ? Number(etag[1]) : null });
      const error = (body ?? {}) as Partial<ErrorBody>;
      const retry = xhr.getResponseHeader("retry-after");
      reject(
        new ApiClientError(
          xhr.status,
          error.code ?? "unknown_error",
          error.message ?? `The server answered ${xhr.status}.`,
          error.details ?? [],
          retry && /^\d+$/.test(retry) ? Number(retry) : undefined,
        ),
      );
    };
    xhr.onerror = () => reject(new ApiClientError(0, "network_error", "The upload was interrupted. Check your connection and try again."));
    xhr.onabort = () => reject(new ApiClientError(0, "aborted", "The upload was cancelled."));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    if (alt.trim()) form.append("alt", alt.trim());
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
