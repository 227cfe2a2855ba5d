"use client";

import { useTranslations } from "next-intl";
import { useLocalePath } from "@/lib/i18n/paths";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";
import { DEFAULT_STATUS, browseHref, type BrowseQuery } from "@/components/pets/browse-query";
import { isPlainClick } from "@/components/pets/follow-in-place";
import { primaryButtonClass, textLinkClass } from "@/components/pets/styles";
import { useHydrated } from "@/components/use-hydrated";

/**
 * The list could not be loaded: a sentence for people (a 429 says how long
 * to wait, from Retry-After), Retry, and for a bad link (400) the way out.
 */
export function BrowseLoadError({
  error,
  onRetry,
  query,
  onNavigate,
}: {
  error: unknown;
  onRetry: () => void;
  query: BrowseQuery;
  onNavigate: (next: BrowseQuery) => void;
}) {
  const t = useTranslations("Empty");
  const to = useLocalePath();
  // Drawn by the server when its own request failed: Retry does nothing until this box's code has run.
  const hydrated = useHydrated();
  const badLink = error instanceof ApiClientError && error.status === 400;
  const cleared: BrowseQuery = { status: DEFAULT_STATUS, limit: query.limit };
  return (
    <div role="alert" className="rounded-xl border border-red-300 bg-red-50 px-6 py-8">
      <h3 className="text-lg font-semibold text-red-900">{t("loadErrorTitle")}</h3>
      <p className="mt-1 text-red-900">{describeError(error)}</p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {/* While the retry loads, this box gives way to the loading skeletons. */}
        <button type="button" disabled={!hydrated} className={primaryButtonClass} onClick={onRetry}>
          {t("retry")}
        </button>
        {badLink && (
          <a
            href={to(browseHref(cleared))}
            className={textLinkClass}
            onClick={(event) => {
              if (!isPlainClick(event)) return;
              event.preventDefault();
              onNavigate(cleared);
            }}
          >
            {t("startAgain")}
          </a>
        )}
      </div>
    </div>
  );
}
