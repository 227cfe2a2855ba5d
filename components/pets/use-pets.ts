"use client";

import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { ApiClientError, networkError } from "@/lib/site/api-client-core";
import { browseHref, type BrowseQuery, type PetPage } from "@/components/pets/browse-query";

// The browse page's own fetching, without react-query: the first page's
// JavaScript budget (e2e/ui/page-weight.spec.ts) cannot carry its 12 kB,
// and the page needs only a little of it (docs/decisions/012-phone-first-browse.md).
// What it keeps of react-query's behaviour, as the rest of the site sets it
// (components/providers.tsx): a view's page is kept and shown at once when
// the view comes back, asked again after 30 s; the previous page stays on
// screen while another loads; a failure other than a 4xx is tried twice
// more; a request that is no longer wanted is aborted.

export type BrowseLater = typeof import("@/components/pets/browse-later");

/** The browse page's code for views the server did not render (browse-later.ts); failing to load it is a network failure. */
export function loadBrowseLater(): Promise<BrowseLater> {
  return import("@/components/pets/browse-later").catch(() => {
    throw networkError();
  });
}

/** How long a view's page counts as current (react-query's staleTime on the rest of the site). */
const FRESH_MS = 30_000;
/** Failures other than the client's own (a 4xx, a 429's wait included) are tried again this many times, 1 s then 2 s apart. */
const RETRIES = 2;

interface Entry {
  page?: PetPage;
  /** When page was fetched (ms). */
  at: number;
  error?: unknown;
}

/** The pages fetched in this tab, by view (its canonical URL), for useSyncExternalStore. */
function pageStore(seed: [string, Entry][]) {
  let entries: ReadonlyMap<string, Entry> = new Map(seed);
  const listeners = new Set<() => void>();
  return {
    get: (key: string) => entries.get(key),
    snapshot: () => entries,
    set(key: string, entry: Entry) {
      entries = new Map(entries).set(key, entry);
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

interface UsePetsOptions {
  /** The server-rendered page, when it was rendered for this very query. */
  initial?: { page: PetPage; fetchedAt: number };
  enabled: boolean;
}

export interface PetsResult {
  /** The view's page, or while it loads (isPlaceholderData) the last page shown. */
  data: PetPage | undefined;
  isPlaceholderData: boolean;
  error: unknown;
  refetch: () => void;
}

/** One page of animals for a view. */
export function usePets(query: BrowseQuery, { initial, enabled }: UsePetsOptions): PetsResult {
  const key = browseHref(query);
  // One store per mounted browser: a server render never shares pages between visitors.
  const [store] = useState(() => pageStore(initial ? [[key, { page: initial.page, at: initial.fetchedAt }]] : []));
  const entries = useSyncExternalStore(store.subscribe, store.snapshot, store.snapshot);
  const entry = entries.get(key);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    const known = store.get(key);
    if (known?.page && Date.now() - known.at < FRESH_MS) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Asking again clears the last failure: the loading state shows, as it does for a first try.
    if (known?.error) store.set(key, { page: known.page, at: known.at });
    const run = async (tries: number): Promise<void> => {
      try {
        const page = await (await loadBrowseLater()).fetchPets(query, controller.signal);
        store.set(key, { page, at: Date.now() });
      } catch (error) {
        if (controller.signal.aborted) return;
        const clientError = error instanceof ApiClientError && error.status >= 400 && error.status < 500;
        if (!clientError && tries < RETRIES) {
          timer = setTimeout(() => void run(tries + 1), 1000 * 2 ** tries);
          return;
        }
        const stale = store.get(key);
        store.set(key, { page: stale?.page, at: stale?.at ?? 0, error });
      }
    };
    void run(0);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // attempt: Retry asks again for the same view.
  }, [key, query, enabled, attempt, store]);

  // The last page shown stays on screen while another view loads.
  const [shown, setShown] = useState(entry?.page);
  if (entry?.page && entry.page !== shown) setShown(entry.page);

  const refetch = useCallback(() => setAttempt((n) => n + 1), []);
  return {
    data: entry?.page ?? shown,
    isPlaceholderData: !entry?.page && shown !== undefined,
    error: entry?.error ?? null,
    refetch,
  };
}
