"use client";

import { useTranslations } from "next-intl";
import { useLocalePath, usePageLocale } from "@/lib/i18n/paths";

import { useEffect, useRef, useState } from "react";
import { confirmAlert, deleteAlert, getAlert, pauseAlert, type AlertView } from "@/components/alerts/alerts-api";
import { FormAlert } from "@/components/staff/form-alert";
import { dangerButtonClass, linkClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";

type State =
  | { kind: "loading" }
  | { kind: "shown"; alert: AlertView; justConfirmed: boolean }
  | { kind: "gone" }
  | { kind: "deleted" }
  | { kind: "failed"; error: unknown };

const isGone = (error: unknown) => error instanceof ApiClientError && (error.status === 404 || error.status === 400);

/**
 * The alert's private page. Opening the emailed link confirms the alert:
 * the page asks for it (POST …/confirm) once it has read an unconfirmed
 * alert, so only a browser running this page confirms, never a scanner
 * that fetches the link. Then: what it watches, how often, Pause or
 * Resume, Delete.
 */
export function AlertManager({
  token,
  initial,
  description,
}: {
  token: string;
  /** The alert as the server read it (GET only); absent when that failed. */
  initial?: AlertView;
  /** What it watches in the page's language, when not English (the API describes it in English). */
  description?: string;
}) {
  const t = useTranslations("AlertPage");
  const locale = usePageLocale();
  const to = useLocalePath();
  const errorWords = (error: unknown) => (locale === "en" ? describeError(error) : t("genericError"));
  const [state, setState] = useState<State>(() =>
    initial && initial.status !== "unconfirmed" ? { kind: "shown", alert: initial, justConfirmed: false } : { kind: "loading" },
  );
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState<"pause" | "delete" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const needsConfirming = initial?.status === "unconfirmed";
  const needsReading = !initial;

  useEffect(() => {
    if (!needsConfirming && !needsReading && attempt === 0) return;
    let live = true;
    (async () => {
      try {
        let alert = needsConfirming && attempt === 0 ? initial : (await getAlert(token)).data;
        let justConfirmed = false;
        if (alert.status === "unconfirmed") {
          alert = (await confirmAlert(token)).data;
          justConfirmed = true;
        }
        if (live) setState({ kind: "shown", alert, justConfirmed });
      } catch (error) {
        if (live) setState(isGone(error) ? { kind: "gone" } : { kind: "failed", error });
      }
    })();
    return () => {
      live = false;
    };
  }, [token, attempt, initial, needsConfirming, needsReading]);

  useEffect(() => {
    if (state.kind === "deleted") heading.current?.focus();
  }, [state.kind]);

  if (state.kind === "loading") {
    return (
      <p role="status" className="text-stone-700">
        {needsConfirming ? t("confirming") : t("opening")}
      </p>
    );
  }
  if (state.kind === "gone" || state.kind === "deleted") {
    return (
      <section aria-labelledby="alert-gone" className={`${panelClass} space-y-3`}>
        <h1 id="alert-gone" ref={heading} tabIndex={-1} className="text-2xl font-bold text-stone-900 focus:outline-none">
          {state.kind === "deleted" ? t("deletedHeading") : t("goneHeading")}
        </h1>
        <p className="text-stone-800">
          {state.kind === "deleted" ? t("deletedText") : t("goneText")} {t.rich("createAnother", { strong: (chunks) => <strong>{chunks}</strong> })}
        </p>
        <p>
          <a href={to("/")} className={linkClass}>
            {t("browse")}
          </a>
        </p>
      </section>
    );
  }
  if (state.kind === "failed") {
    return (
      <div role="alert" className="rounded-xl border border-red-300 bg-red-50 px-6 py-8">
        <h1 className="text-2xl font-bold text-red-900">{t("failedHeading")}</h1>
        <p className="mt-2 text-red-900">{errorWords(state.error)}</p>
        <button
          type="button"
          className={`${primaryButtonClass} mt-4`}
          onClick={() => {
            setState({ kind: "loading" });
            setAttempt((n) => n + 1);
          }}
        >
          {t("tryAgain")}
        </button>
      </div>
    );
  }

  const { alert, justConfirmed } = state;
  const paused = alert.status === "paused";
  const act = async (what: "pause" | "delete") => {
    setBusy(what);
    setProblem(null);
    try {
      if (what === "delete") {
        await deleteAlert(token);
        setState({ kind: "deleted" });
      } else {
        const next = (await pauseAlert(token, !paused)).data;
        setState({ kind: "shown", alert: next, justConfirmed: false });
      }
    } catch (error) {
      if (isGone(error)) setState({ kind: "gone" });
      else setProblem(errorWords(error));
    } finally {
      setBusy(null);
    }
  };

  const row = (term: string, value: React.ReactNode) => (
    <>
      <dt className="font-semibold text-stone-700">{term}</dt>
      <dd className="min-w-0 text-stone-900 wrap-anywhere">{value}</dd>
    </>
  );
  return (
    <div className="max-w-2xl space-y-5">
      <h1 className="text-2xl font-bold text-stone-900 sm:text-3xl">{t("heading")}</h1>
      {justConfirmed ? (
        <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950">
          {t("confirmed")}
        </p>
      ) : null}
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      <section aria-label={t("region")} className={`${panelClass} space-y-5`}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3">
          {row(t("watching"), (locale === "en" ? alert.description : description) || t("allAnimals"))}
          {row(t("howOften"), alert.frequency === "hourly" ? t("hourly") : t("daily", { zone: alert.timeZone.replaceAll("_", " ") }))}
          {row(t("status"), paused ? t("paused") : t("active"))}
          {alert.emailHint ? row(t("sentTo"), alert.emailHint) : null}
        </dl>
        <div className="flex flex-wrap gap-3">
          <button type="button" className={secondaryButtonClass} disabled={busy !== null} onClick={() => void act("pause")}>
            {busy === "pause" ? (paused ? t("resuming") : t("pausing")) : paused ? t("resume") : t("pause")}
          </button>
          <button type="button" className={dangerButtonClass} disabled={busy !== null} onClick={() => void act("delete")}>
            {busy === "delete" ? t("deleting") : t("delete")}
          </button>
        </div>
        <p className="text-sm text-stone-600">{t("keepPrivate")}</p>
      </section>
      <p>
        <a href={to("/")} className={linkClass}>
          {t("browse")}
        </a>
      </p>
    </div>
  );
}
