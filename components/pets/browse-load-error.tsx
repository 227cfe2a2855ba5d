"use client";

import { ApiClientError, describeError } from "@/lib/site/api-client";
import { primaryButtonClass } from "@/components/pets/styles";

/**
 * The list could not be loaded: a sentence for people (a 429 says how long
 * to wait, from Retry-After), Retry, and for a bad link (400) the way out.
 */
export function BrowseLoadError({
  error,
  onRetry,
  clearFilters,
}: {
  error: unknown;
  onRetry: () => void;
  clearFilters: React.ReactNode;
}) {
  const badLink = error instanceof ApiClientError && error.status === 400;
  return (
    <div role="alert" className="rounded-xl border border-red-300 bg-red-50 px-6 py-8">
      <h3 className="text-lg font-semibold text-red-900">We couldn’t load the animals</h3>
      <p className="mt-1 text-red-900">{describeError(error)}</p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {/* While the retry loads, this box gives way to the loading skeletons. */}
        <button type="button" className={primaryButtonClass} onClick={onRetry}>
          Retry
        </button>
        {badLink && clearFilters}
      </div>
    </div>
  );
}
