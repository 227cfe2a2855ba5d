"use client";

import { ClientMessages, useLocalePath, usePageLocale, useTranslations } from "@/lib/i18n/client-translator";
import type { AbstractIntlMessages } from "next-intl";
import type { Locale } from "@/lib/i18n/locales";
import { useSearchParams } from "next/navigation";
import { countArgs } from "@/lib/i18n/numbers";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiClientError, networkError } from "@/lib/site/api-error";
import { linkCursor } from "@/lib/site/api-client-core";
import { ALERT_BUTTON_ID, AlertPanel } from "@/components/alerts/alert-panel";
import { BrowseFilters } from "@/components/pets/browse-filters";
import { FILTERS_BUTTON_ID, FilterSheet } from "@/components/pets/filter-sheet";
import { browseHeading, browseHref, nearWords, parseBrowseQuery, sameQuery, type BrowseQuery, type InitialBrowse } from "@/components/pets/browse-query";
import { NearBox } from "@/components/pets/near-box";
import { Pager } from "@/components/pets/pager";
import { SearchBox } from "@/components/pets/search-box";
import { StatusTabs } from "@/components/pets/status-tabs";
import { useBrowseCategories } from "@/components/pets/use-browse-categories";
import { loadBrowseLater, usePets, type BrowseLater } from "@/components/pets/use-pets";

// Shown only when a search finds nothing or a load fails: their code is
// fetched when they are, not with every first page (whose JavaScript budget
// is 150 kB), with the rest of the code for what the server did not render
// (browse-later.ts).
const BrowseEmptyState = lazy(() => loadBrowseLater().then((m) => ({ default: m.BrowseEmptyState })));
const BrowseLoadError = lazy(() => loadBrowseLater().then((m) => ({ default: m.BrowseLoadError })));

const GRID = "grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4";

/**
 * The adopters' browser. The URL is the state: every change pushes a new
 * history entry with window.history.pushState, which Next keeps in step with
 * useSearchParams without a server round trip (router.push would re-render
 * the server page, fetching the list there as well as here). The server's
 * render seeds the page's store (use-pets.ts) for the view it rendered;
 * every other view is fetched from /v1/pets in the browser, the previous
 * page staying on screen.
 */
export function PetBrowser({ locale, messages, ...props }: BrowserProps & { locale: Locale; messages: AbstractIntlMessages }) {
  // The page's words for its client parts (lib/i18n/client-messages.ts),
  // through the small translator rather than next-intl's client runtime.
  return (
    <ClientMessages locale={locale} messages={messages}>
      <Browser {...props} />
    </ClientMessages>
  );
}

interface BrowserProps {
  initial: InitialBrowse;
  /** initial.page's cards, rendered on the server (an <li> each): the card's own code loads only for another page. */
  firstCards?: React.ReactNode;
  // Markup that never changes, rendered on the server rather than shipped as code:
  /** One card's loading placeholder (PetCardSkeleton). */
  skeleton: React.ReactNode;
  /** The line under the heading. */
  intro: React.ReactNode;
}

function Browser({ initial, firstCards, skeleton, intro }: BrowserProps) {
  const searchParams = useSearchParams();
  const t = useTranslations("Browse");
  const to = useLocalePath();
  const locale = usePageLocale();
  // (Typed nullable only because the app also has a Pages Router page; here it is always set.)
  const query = useMemo(() => parseBrowseQuery((name) => searchParams?.getAll(name)), [searchParams]);
  const fromServer = sameQuery(query, initial.query) ? initial : undefined;

  // When the server's own request failed (a 429, a bad cursor), that answer is
  // shown as it is rather than asked again at once; Retry asks again.
  const [serverErrorShown, setServerErrorShown] = useState(initial.error !== undefined);
  if (serverErrorShown && !fromServer) setServerErrorShown(false);
  const serverError = serverErrorShown && fromServer?.error ? fromServer.error : undefined;

  const categories = useBrowseCategories(initial.categories);
  const pets = usePets(query, {
    initial: fromServer?.page ? { page: fromServer.page, fetchedAt: fromServer.fetchedAt } : undefined,
    enabled: serverError === undefined,
    manyShelters: initial.manyShelters,
  });
  // The code for views the server did not render (cards, fetching), once
  // loaded; failing to load it is shown as the network failure it is.
  const [later, setLater] = useState<BrowseLater>();
  const [laterFailed, setLaterFailed] = useState(false);
  const fetchLater = useCallback(() => void loadBrowseLater().then(setLater, () => setLaterFailed(true)), []);

  const error =
    pets.error ??
    (serverError && new ApiClientError(serverError.status, serverError.code, serverError.message, [], serverError.retryAfter)) ??
    (laterFailed ? networkError() : null);

  const heading = browseHeading(query.status, t);
  useEffect(() => {
    // Views change without a page load, so the title follows by hand.
    document.title = `${heading} · Petstore`;
  }, [heading]);

  const resultsRef = useRef<HTMLElement>(null);
  const navigate = useCallback(
    (next: BrowseQuery, { replace = false }: { replace?: boolean } = {}) => {
      const href = to(browseHref(next));
      if (href === to(browseHref(query))) return;
      // A search being refined as it is typed replaces its own entry, so
      // Back leaves the search instead of stepping through every pause.
      if (replace) window.history.replaceState(null, "", href);
      else window.history.pushState(null, "", href);
      // Paging from the bottom of a long list: bring the top of the new page into view.
      const top = resultsRef.current?.getBoundingClientRect().top;
      if (top !== undefined && top < 0) resultsRef.current?.scrollIntoView({ block: "start" });
    },
    [query, to],
  );

  // usePets keeps the last page that loaded on screen while another
  // loads. Right after an error that page belongs to some earlier view, so
  // skeletons stand in until real data (or another error) arrives.
  const [afterError, setAfterError] = useState(false);
  if (error && !afterError) setAfterError(true);
  if (afterError && !error && pets.data && !pets.isPlaceholderData) setAfterError(false);
  const data = afterError && pets.isPlaceholderData ? undefined : pets.data;
  // The server's page, as long as it is the one shown (also while the next
  // one loads), keeps the cards the server drew; any other is drawn here,
  // once the card's code is in (skeletons until then).
  const PetCards = later?.PetCards;
  const cards =
    data === undefined
      ? undefined
      : data === initial.page && categories.data === initial.categories && firstCards !== undefined
        ? firstCards
        : data.pets.length === 0
          ? []
          : PetCards && <PetCards pets={data.pets} categories={categories.data} shelters={data.shelters} />;
  const page = cards === undefined ? undefined : data;
  // Another view, or the server's page failed (fetching needs that code as
  // well: asked for at once, it is in before the data), or cards the server
  // did not draw.
  const needsLater = !later && (!fromServer?.page || (data !== undefined && cards === undefined));
  useEffect(() => {
    if (needsLater) fetchLater();
  }, [needsLater, fetchLater]);
  const busy = page !== undefined && pets.isPlaceholderData;

  let summary = "";
  if (error) summary = "";
  else if (!page) summary = t("loadingAnimalsEllipsis");
  else if (busy) summary = t("loading");
  else if (page.pets.length > 0) {
    const near = nearWords(query, t);
    const values = { ...countArgs(page.pets.length, locale), q: query.q ?? "", near: near ?? "" };
    summary = near ? t(query.q ? "summaryNearestMatching" : "summaryNearest", values) : t(query.q ? "summaryNewestMatching" : "summaryNewest", values);
  } else summary = t("noAnimals");
  // The Filters sheet's "Show N animals": exact whenever the page holds every
  // match (no page before or after it), which costs nothing more; otherwise
  // "Show animals" (the API has no count: docs/decisions/012-phone-first-browse.md).
  const count = page && !busy && !error && !linkCursor(page.link, "next") && !linkCursor(page.link, "prev") ? page.pets.length : undefined;

  return (
    <div className="space-y-4 sm:space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-stone-900 sm:text-3xl">{heading}</h1>
        {intro}
      </div>

      <div className="space-y-4">
        {/* The searches, on every screen: by name, and (with more than one
            shelter) near a place, beside it, or below it on a phone. */}
        <div className="flex flex-wrap items-start gap-x-4 gap-y-3">
          <SearchBox query={query} onNavigate={navigate} />
          {initial.manyShelters && <NearBox query={query} onNavigate={navigate} />}
        </div>
        {/* From 640 px up the filters are on the page; on a phone they are in
            the Filters sheet, except without JavaScript (the style below). */}
        <div id="filter-row" className="hidden space-y-4 sm:block">
          <StatusTabs query={query} onNavigate={navigate} />
          <BrowseFilters query={query} categories={categories.data} onNavigate={navigate} />
        </div>
        <noscript>
          <style>{`#filter-row{display:block}#${FILTERS_BUTTON_ID},#${ALERT_BUTTON_ID}{display:none}`}</style>
        </noscript>
        {/* An alert for this view's filters (status aside): its form loads when opened. */}
        <AlertPanel query={query} categories={categories.data} />
      </div>

      <section ref={resultsRef} aria-labelledby="results-heading" className="scroll-mt-4 space-y-4">
        <div className="flex min-h-6 items-center gap-3">
          <h2 id="results-heading" className="sr-only">
            {t("animals")}
          </h2>
          <FilterSheet query={query} categories={categories.data} onNavigate={navigate} count={count} />
          <div className="flex items-center gap-2">
            {busy && (
              <span aria-hidden="true" className="size-4 shrink-0 rounded-full border-2 border-emerald-700 border-t-transparent motion-safe:animate-spin" />
            )}
            <p role="status" className="text-sm text-stone-700">
              {summary}
            </p>
          </div>
        </div>

        {error ? (
          <Suspense>
            <BrowseLoadError
              error={error}
              onRetry={() => {
                if (laterFailed) {
                  setLaterFailed(false);
                  fetchLater();
                }
                if (serverError) setServerErrorShown(false);
                else if (pets.error) void pets.refetch();
              }}
              query={query}
              onNavigate={navigate}
            />
          </Suspense>
        ) : !page ? (
          <ul aria-busy="true" aria-label={t("loadingAnimals")} className={GRID}>
            {Array.from({ length: Math.min(query.limit, 8) }, (_, i) => (
              <li key={i}>{skeleton}</li>
            ))}
          </ul>
        ) : page.pets.length === 0 ? (
          <Suspense>
            <BrowseEmptyState query={query} onNavigate={navigate} />
          </Suspense>
        ) : (
          <ul aria-busy={busy} aria-labelledby="results-heading" className={`${GRID} transition-opacity ${busy ? "opacity-60" : ""}`}>
            {cards}
          </ul>
        )}

        {page && !error && (linkCursor(page.link, "prev") || linkCursor(page.link, "next")) && (
          <Pager query={query} prev={linkCursor(page.link, "prev")} next={linkCursor(page.link, "next")} busy={busy} onNavigate={navigate} />
        )}
      </section>
    </div>
  );
}
