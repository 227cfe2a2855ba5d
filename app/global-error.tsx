"use client";

import { useSyncExternalStore } from "react";
import { DEFAULT_LOCALE, localePath, splitLocale, type Locale } from "@/lib/i18n/locales";

// The last resort when the root layout itself fails to render. Next's own
// fallback ships a styled error screen in every page's JavaScript; this one
// is plain and small, in the site's words and the visitor's language.
// Nothing above it gives the language (the layout is what failed), so it is
// read from the address ("/es/…"). Its words are here rather than in the
// messages files, which would travel with every page's JavaScript; the
// Record makes a third language in LOCALES fail to compile until it is here.
const WORDS: Record<Locale, { heading: string; text: string; tryAgain: string; or: string; home: string }> = {
  en: {
    heading: "Something went wrong",
    text: "The page could not be shown. Please try again in a moment.",
    tryAgain: "Try again",
    or: "or",
    home: "go to the list of animals",
  },
  es: {
    heading: "Algo salió mal",
    text: "No se pudo mostrar la página. Vuelva a intentarlo en un momento.",
    tryAgain: "Volver a intentar",
    or: "o",
    home: "ir a la lista de animales",
  },
};

const noSubscription = () => () => {};

export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  // The browser's address; on the server (no window) the default language.
  const locale = useSyncExternalStore(
    noSubscription,
    () => splitLocale(window.location.pathname).locale,
    () => DEFAULT_LOCALE,
  );
  const t = WORDS[locale];
  return (
    <html lang={locale}>
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "4rem auto", maxWidth: "32rem", padding: "0 1rem", color: "#1c1917" }}>
        <h1>{t.heading}</h1>
        <p>{t.text}</p>
        <p>
          <button type="button" onClick={() => reset()}>
            {t.tryAgain}
          </button>{" "}
          {/* A full page load on purpose: the app's own navigation is what failed. */}
          {t.or} <a href={localePath(locale, "/")}>{t.home}</a>.
        </p>
      </body>
    </html>
  );
}
