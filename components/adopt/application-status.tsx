"use client";

import { useTranslations } from "next-intl";
import { dayText } from "@/components/pets/pet-facts";
import { useLocalePath, usePageLocale } from "@/lib/i18n/paths";

import { useState } from "react";
import type { ApplicationState, ApplicationStatus } from "@/lib/applications/schemas";
import { buttonClass, textLinkClass } from "@/components/pets/styles";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";

// The applicant's private page: where their application stands, what it
// means, and Withdraw while nothing is decided.

/** Each state's colours; its words are the messages' Application.state and Application.stateText. */
const TONES: Record<ApplicationState, string> = {
  received: "border-sky-300 bg-sky-50 text-sky-950",
  in_review: "border-sky-300 bg-sky-50 text-sky-950",
  approved: "border-emerald-300 bg-emerald-50 text-emerald-950",
  declined: "border-stone-300 bg-stone-100 text-stone-900",
  withdrawn: "border-stone-300 bg-stone-100 text-stone-900",
  completed: "border-emerald-300 bg-emerald-50 text-emerald-950",
  cancelled: "border-stone-300 bg-stone-100 text-stone-900",
};

export function ApplicationStatusView({ token, initial }: { token: string; initial: ApplicationStatus }) {
  const [application, setApplication] = useState(initial);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useTranslations("Application");
  const locale = usePageLocale();
  const to = useLocalePath();
  const tone = TONES[application.state];
  const undecided = application.state === "received" || application.state === "in_review";

  async function withdraw() {
    setBusy(true);
    setProblem(null);
    try {
      setApplication((await callApi((api) => api.POST("/application-links/{token}/withdraw", { params: { path: { token } } }))).data);
      setConfirming(false);
    } catch (error) {
      setProblem(locale === "en" ? describeError(error) : t("genericError"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="mx-auto max-w-2xl space-y-5">
      <h1 className="text-3xl font-bold text-stone-900 wrap-anywhere">{t("heading", { pet: application.petName })}</h1>
      <p className="text-stone-700">
        {application.name
          ? t("sentOnBy", { day: dayText(application.createdAt.slice(0, 10), locale), name: application.name, id: String(application.id) })
          : t("sentOn", { day: dayText(application.createdAt.slice(0, 10), locale), id: String(application.id) })}
      </p>
      <div role="status" className={`rounded-lg border px-4 py-3 ${tone}`}>
        <p className="text-lg font-semibold">{t("status", { label: t(`state.${application.state}`) })}</p>
        <p>{t(`stateText.${application.state}`)}</p>
        {application.decisionMessage ? (
          <p className="mt-2 whitespace-pre-line wrap-anywhere">{t("shelterMessage", { message: application.decisionMessage })}</p>
        ) : null}
      </div>
      <p>
        <a href={to(`/pets/${application.petId}`)} className={textLinkClass}>
          {t("seePet", { pet: application.petName })}
        </a>
      </p>
      {problem ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          {t("notWithdrawn", { reason: problem })}
        </p>
      ) : null}
      {undecided &&
        (confirming ? (
          <div className="flex flex-wrap items-center gap-3 rounded-md border border-stone-300 p-4">
            <p className="w-full text-stone-800">{t("confirmWithdraw")}</p>
            <button type="button" disabled={busy} onClick={() => void withdraw()} className={buttonClass}>
              {busy ? t("withdrawing") : t("yesWithdraw")}
            </button>
            <button type="button" onClick={() => setConfirming(false)} className={buttonClass}>
              {t("keep")}
            </button>
          </div>
        ) : (
          <button type="button" onClick={() => setConfirming(true)} className={buttonClass}>
            {t("withdraw")}
          </button>
        ))}
    </article>
  );
}
