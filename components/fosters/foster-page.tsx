"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { dayText } from "@/components/pets/pet-facts";
import { buttonClass, primaryButtonClass, textLinkClass } from "@/components/pets/styles";
import { FosterPreferences } from "@/components/fosters/foster-preferences";
import type { FosterView } from "@/lib/fosters/links-schemas";
import { wholeNumber } from "@/lib/i18n/numbers";
import { usePageLocale } from "@/lib/i18n/paths";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";

// The foster's private page: their animals now (and a note about each for
// the shelter), "ready for another", and what they can take. Everything
// here is theirs alone: the page is opened by the link's token.

type Animal = FosterView["animals"][number];

export function FosterPage({ token, initial }: { token: string; initial: FosterView }) {
  const [view, setView] = useState(initial);
  const [readyProblem, setReadyProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useTranslations("Foster");
  const locale = usePageLocale();
  const shelter = view.organization.name;

  async function ready() {
    setBusy(true);
    setReadyProblem(null);
    try {
      setView((await callApi((api) => api.POST("/foster-links/{token}/ready", { params: { path: { token } } }))).data);
    } catch (error) {
      setReadyProblem(locale === "en" ? describeError(error) : t("genericError"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="mx-auto max-w-3xl space-y-8">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold text-stone-900 wrap-anywhere">{view.name ? t("headingNamed", { name: view.name }) : t("heading")}</h1>
        <p className="text-stone-700">{t("intro", { shelter })}</p>
        {view.status === "paused" ? (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">{t("paused", { shelter })}</p>
        ) : null}
      </header>

      <section aria-labelledby="animals-heading" className="space-y-4">
        <h2 id="animals-heading" className="text-2xl font-semibold text-stone-900">
          {t("animalsHeading")}
        </h2>
        {view.animals.length === 0 ? (
          <p className="rounded-lg border border-stone-200 bg-white px-4 py-6 text-stone-700">{t("noAnimals")}</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {view.animals.map((animal) => (
              <AnimalCard key={animal.id} token={token} animal={animal} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="ready-heading" className="space-y-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="ready-heading" className="text-xl font-semibold text-stone-900">
          {t("readyHeading")}
        </h2>
        <p className="text-stone-700">{t("room", { room: view.room, shown: wholeNumber(view.room, locale), capacity: wholeNumber(view.capacity, locale) })}</p>
        {view.readyAt ? (
          <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950">
            {t("readySaid", { day: dayText(view.readyAt.slice(0, 10), locale), shelter })}
          </p>
        ) : null}
        {readyProblem ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
            {t("notSaved", { reason: readyProblem })}
          </p>
        ) : null}
        <button type="button" disabled={busy} onClick={() => void ready()} className={primaryButtonClass}>
          {busy ? t("sending") : view.readyAt ? t("readyAgain") : t("ready")}
        </button>
      </section>

      <FosterPreferences token={token} view={view} onSaved={setView} />

      <footer className="space-y-1 border-t border-stone-200 pt-4 text-sm text-stone-700">
        <p>
          {t("contact", { shelter })}{" "}
          {view.organization.email ? (
            <a href={`mailto:${view.organization.email}`} className={textLinkClass}>
              {view.organization.email}
            </a>
          ) : null}
          {view.organization.email && view.organization.phone ? " · " : null}
          {view.organization.phone ? (
            <a href={`tel:${view.organization.phone.replace(/[^0-9+]/g, "")}`} className={textLinkClass}>
              {view.organization.phone}
            </a>
          ) : null}
        </p>
        <p>{t("expires", { day: dayText(view.expiresAt.slice(0, 10), locale) })}</p>
      </footer>
    </article>
  );
}

function AnimalCard({ token, animal }: { token: string; animal: Animal }) {
  const t = useTranslations("Foster");
  const locale = usePageLocale();
  const [writing, setWriting] = useState(false);
  const [text, setText] = useState("");
  const [state, setState] = useState<{ kind: "idle" | "sending" | "sent" } | { kind: "failed"; reason: string }>({ kind: "idle" });

  async function send() {
    if (!text.trim()) {
      setState({ kind: "failed", reason: t("noteEmpty") });
      return;
    }
    setState({ kind: "sending" });
    try {
      await callApi((api) => api.POST("/foster-links/{token}/notes", { params: { path: { token } }, body: { petId: animal.id, text } }));
      setState({ kind: "sent" });
      setText("");
      setWriting(false);
    } catch (error) {
      setState({ kind: "failed", reason: locale === "en" ? describeError(error) : t("genericError") });
    }
  }

  const noteId = `note-${animal.id}`;
  return (
    <li className="overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
      {animal.photo ? (
        // eslint-disable-next-line @next/next/no-img-element -- a plain img, as every animal photo (components/pets/pet-photo.tsx)
        <img
          src={animal.photo.url}
          alt={animal.photo.alt ?? animal.name}
          width={animal.photo.width}
          height={animal.photo.height}
          className="aspect-[4/3] w-full object-cover"
        />
      ) : (
        <div aria-hidden="true" className="flex aspect-[4/3] w-full items-center justify-center bg-stone-100 text-5xl">
          🐾
        </div>
      )}
      <div className="space-y-2 p-4">
        <h3 className="text-xl font-semibold text-stone-900 wrap-anywhere">{animal.name}</h3>
        <p className="text-stone-700">{t("since", { day: dayText(animal.since.slice(0, 10), locale) })}</p>
        <p className="text-stone-700">{animal.expectedBack ? t("expectedBack", { day: dayText(animal.expectedBack, locale) }) : t("noExpectedBack")}</p>
        {state.kind === "sent" ? (
          <p role="status" className="text-emerald-800">
            {t("noteSent")}
          </p>
        ) : null}
        {writing ? (
          <div className="space-y-2">
            <label htmlFor={noteId} className="block text-sm font-semibold text-stone-800">
              {t("noteLabel", { name: animal.name })}
            </label>
            <textarea
              id={noteId}
              rows={4}
              maxLength={2000}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-describedby={`${noteId}-hint`}
              className="block w-full rounded-md border border-stone-400 px-3 py-2 text-base text-stone-900"
            />
            <p id={`${noteId}-hint`} className="text-sm text-stone-600">
              {t("noteHint")}
            </p>
            {state.kind === "failed" ? (
              <p role="alert" className="text-red-800">
                {t("notSaved", { reason: state.reason })}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              <button type="button" disabled={state.kind === "sending"} onClick={() => void send()} className={primaryButtonClass}>
                {state.kind === "sending" ? t("sending") : t("sendNote")}
              </button>
              <button type="button" onClick={() => setWriting(false)} className={buttonClass}>
                {t("cancel")}
              </button>
            </div>
          </div>
        ) : (
          <button
            type="button"
            onClick={() => {
              setWriting(true);
              setState({ kind: "idle" });
            }}
            className={buttonClass}
          >
            {t("writeNote", { name: animal.name })}
          </button>
        )}
      </div>
    </li>
  );
}
