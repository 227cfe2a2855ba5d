"use client";

import { useTranslations } from "next-intl";
import { usePageLocale } from "@/lib/i18n/paths";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import type { PlainApiError } from "@/lib/site/plain-error";
import { primaryButtonClass, textLinkClass } from "@/components/pets/styles";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";

/**
 * A list on the shelters' pages could not be loaded (a 429 says how long to
 * wait, from Retry-After; the database away): the reason for people, Try
 * again, and for a page link that no longer works, the way back to the first.
 */
export function LoadFailed({ title, error, firstPageHref }: { title: string; error: PlainApiError; firstPageHref?: string }) {
  const router = useRouter();
  const t = useTranslations("Common");
  const locale = usePageLocale();
  const [retrying, startTransition] = useTransition();
  return (
    <div role="alert" className="rounded-xl border border-red-300 bg-red-50 px-6 py-6">
      <h2 className="text-lg font-semibold text-red-900">{title}</h2>
      <p className="mt-1 text-red-900">
        {locale === "en" ? describeError(new ApiClientError(error.status, error.code, error.message, [], error.retryAfter)) : t("genericError")}
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <button
          type="button"
          className={`${primaryButtonClass} aria-disabled:cursor-wait aria-disabled:opacity-80`}
          aria-disabled={retrying || undefined}
          onClick={() => {
            if (!retrying) startTransition(() => router.refresh());
          }}
        >
          {retrying ? t("tryingAgain") : t("tryAgain")}
        </button>
        {firstPageHref ? (
          <a href={firstPageHref} className={textLinkClass}>
            {t("startAgain")}
          </a>
        ) : null}
      </div>
    </div>
  );
}
