"use client";

import { useTranslations } from "next-intl";
import { lazy, Suspense, useState } from "react";
import { primaryButtonClass } from "@/components/pets/styles";
import { useHydrated } from "@/components/use-hydrated";

// The form and its schemas are fetched when a visitor asks for them, not with every shelter's page.
const FosterApplyForm = lazy(() => import("@/components/fosters/foster-apply-form"));

/** "Foster for <shelter>" on a shelter's page: why, and the application to foster. */
export function FosterApplyPanel({ organization }: { organization: { id: number; name: string; country: string | null } }) {
  const [open, setOpen] = useState(false);
  const t = useTranslations("FosterApply");
  // Drawn by the server; a click before the page's code has run would do nothing, so the button waits for it.
  const hydrated = useHydrated();
  return (
    <section aria-labelledby="foster-heading" className="space-y-3 rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="foster-heading" className="text-2xl font-semibold text-stone-900 wrap-anywhere">
        {t("heading", { shelter: organization.name })}
      </h2>
      <p className="text-stone-700">{t("pitch", { shelter: organization.name })}</p>
      {open ? (
        <Suspense fallback={<p role="status">{t("loadingForm")}</p>}>
          <FosterApplyForm organization={organization} onCancel={() => setOpen(false)} />
        </Suspense>
      ) : (
        <button type="button" disabled={!hydrated} className={`${primaryButtonClass} px-6 py-3 text-base`} onClick={() => setOpen(true)}>
          {t("open")}
        </button>
      )}
    </section>
  );
}
