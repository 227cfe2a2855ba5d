"use client";

import { useTranslations } from "@/lib/i18n/client-translator";
import { lazy, Suspense, useState } from "react";
import type { BrowseQuery } from "@/components/pets/browse-query";
import type { Category } from "@/lib/pets/schemas/pet";

// The browse page's "Email me new matches": only the button ships with the
// first page (its JavaScript budget is 150 kB); the form, with
// react-hook-form and zod, loads when the button is pressed.
// It says its words through next-intl, whose runtime comes with it (lib/i18n/next-intl-bridge.tsx).
type FormProps = React.ComponentProps<(typeof import("@/components/alerts/alert-form"))["default"]>;
const AlertForm = lazy<React.ComponentType<FormProps>>(() =>
  Promise.all([import("@/components/alerts/alert-form"), import("@/lib/i18n/next-intl-bridge")]).then(
    ([form, bridge]) => ({ default: bridge.withNextIntl(form.default) }),
    () => ({
      default: function AlertFormFailed() {
        const t = useTranslations("AlertForm");
        return (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
            {t("unreachable")}
          </p>
        );
      },
    }),
  ),
);

const FORM_ID = "alert-form";
/** The button's id: hidden without JavaScript (the page's <noscript> style), where it could do nothing. */
export const ALERT_BUTTON_ID = "alert-button";

export function AlertPanel({ query, categories }: { query: BrowseQuery; categories: Category[] | undefined }) {
  const [open, setOpen] = useState(false);
  const t = useTranslations("AlertForm");
  return (
    <div className="space-y-3">
      <button
        id={ALERT_BUTTON_ID}
        type="button"
        aria-expanded={open}
        aria-controls={open ? FORM_ID : undefined}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-2 rounded-md border border-emerald-700 bg-white px-3 py-2 text-sm font-semibold text-emerald-900 shadow-sm hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-current">
          <path d="M2.5 5A1.5 1.5 0 0 1 4 3.5h12A1.5 1.5 0 0 1 17.5 5v10a1.5 1.5 0 0 1-1.5 1.5H4A1.5 1.5 0 0 1 2.5 15V5Zm1.8.3v.3l5.7 4.2 5.7-4.2v-.3H4.3Zm11.4 2.2-5.2 3.8a.9.9 0 0 1-1 0L4.3 7.5v7.2h11.4V7.5Z" />
        </svg>
        {t("button")}
      </button>
      {open ? (
        <Suspense
          fallback={
            <p role="status" className="text-sm text-stone-700">
              {t("loadingForm")}
            </p>
          }
        >
          <AlertForm id={FORM_ID} query={query} categories={categories} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
