"use client";

import { useTranslations } from "next-intl";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";
import type { PlainApiError } from "@/lib/site/plain-error";
import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { primaryButtonClass } from "@/components/pets/styles";

/** The animal's page could not be rendered for a reason other than "no such animal" (a 429, a 503). */
export function PetLoadFailed({ error }: { error: PlainApiError }) {
  const router = useRouter();
  const t = useTranslations("Pet");
  const [retrying, startTransition] = useTransition();
  const message = describeError(new ApiClientError(error.status, error.code, error.message, [], error.retryAfter));
  return (
    <div className="space-y-6">
      <BackToBrowseLink />
      <div role="alert" className="rounded-xl border border-red-300 bg-red-50 px-6 py-8">
        <h1 className="text-2xl font-bold text-red-900">{t("loadFailedHeading")}</h1>
        <p className="mt-2 text-red-900">{message}</p>
        <button
          type="button"
          className={`${primaryButtonClass} mt-4 aria-disabled:cursor-wait aria-disabled:opacity-80`}
          aria-disabled={retrying || undefined}
          onClick={() => {
            if (!retrying) startTransition(() => router.refresh());
          }}
        >
          {retrying ? t("retrying") : t("tryAgain")}
        </button>
      </div>
    </div>
  );
}
