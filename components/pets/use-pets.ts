"use client";

import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { networkError } from "@/lib/site/api-error";
import { type BrowseQuery, type PetPage } from "@/components/pets/browse-query";

// The browse page's fetching: react-query, as on the rest of the site, but
// loaded with the code for the views the server did not render
// (browse-later.ts) instead of with the first page, whose JavaScript budget
// cannot carry its 12 kB (docs/decisions/012-phone-first-browse.md). Until
// then the view is the server's page, which needs no fetching at all.

export type BrowseLater = typeof import("@/components/pets/browse-later");

/** The browse page's code for views the server did not render (browse-later.ts); failing to load it is a network failure. */
export function loadBrowseLater(): Promise<BrowseLater> {
  return import("@/components/pets/browse-later").catch(() => {
    throw networkError();
  });
}

interface UsePetsOptions {
  /** The server-rendered page, when it was rendered for this very query. */
  initial?: { page: PetPage; fetchedAt: number };
  enabled: boolean;
  /** More than one shelter: pages come with their animals' shelters. */
  manyShelters: boolean;
}

export interface PetsResult {
  /** The view's page, or while it loads (isPlaceholderData) the last page shown. */
  data: PetPage | undefined;
  isPlaceholderData: boolean;
  error: unknown;
  refetch: () => void;
}

type Browser = ReturnType<BrowseLater["browseObserver"]>;

/** One page of animals for a view. */
export function usePets(query: BrowseQuery, { initial, enabled, manyShelters }: UsePetsOptions): PetsResult {
  // The server's page, with the query it was rendered for: what the client is seeded with.
  const [seed] = useState(() => initial && { query, ...initial });
  const [browser, setBrowser] = useState<Browser>();
  const [loadFailed, setLoadFailed] = useState<unknown>();
  const [loads, setLoads] = useState(0);
  const needed = enabled && !initial;
  useEffect(() => {
    if (!needed || browser) return;
    let live = true;
    loadBrowseLater().then(
      (later) => live && setBrowser(later.browseObserver(seed, manyShelters)),
      (error: unknown) => live && setLoadFailed(error),
    );
    return () => {
      live = false;
    };
    // loads: Retry after the code failed to load asks for it again.
  }, [needed, browser, seed, loads, manyShelters]);
  useEffect(() => {
    browser?.watch(query, enabled);
  }, [browser, query, enabled]);

  // The observer's changes re-render; what is rendered is this view's own result.
  const subscribe = useCallback((notify: () => void) => (browser ? browser.observer.subscribe(notify) : () => {}), [browser]);
  useSyncExternalStore(
    subscribe,
    () => browser?.observer.getCurrentResult(),
    () => undefined,
  );
  const result = browser?.resultFor(query, enabled);
  const refetch = useCallback(() => {
    if (!browser) {
      setLoadFailed(undefined);
      setLoads((n) => n + 1);
    } else void browser.observer.refetch();
  }, [browser]);

  // The last page shown stays on screen while another view (or, before
  // react-query is in, the code itself) loads.
  const [shown, setShown] = useState(initial?.page);
  const current = result ? result.data : initial?.page;
  if (current && current !== shown) setShown(current);
  return {
    data: current ?? shown,
    isPlaceholderData: result ? result.isPlaceholderData || (!result.data && shown !== undefined) : !initial && shown !== undefined,
    error: result?.error ?? loadFailed ?? null,
    refetch,
  };
}
