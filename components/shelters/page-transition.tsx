"use client";

import { useRouter } from "next/navigation";
import { createContext, use, useCallback, useMemo, useTransition, type ReactNode } from "react";

// The shelters' pages are drawn on the server from the URL. Their search
// form and Previous/Next are plain GET forms and links (they work before
// and without JavaScript); once the page's script runs, they navigate in a
// React transition instead: the current results stay on screen, marked
// busy, until the next ones are ready, and the form keeps its focus and
// what was typed. Back and Forward are the router's own.

interface PageTransition {
  pending: boolean;
  /** Shows another view of this page (a URL of ours). */
  go: (href: string, options?: { scroll?: boolean }) => void;
}

const Context = createContext<PageTransition | null>(null);

export function PageTransitionProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const go = useCallback((href: string, options?: { scroll?: boolean }) => startTransition(() => router.push(href, options)), [router]);
  const value = useMemo(() => ({ pending, go }), [pending, go]);
  return <Context value={value}>{children}</Context>;
}

export function usePageTransition(): PageTransition {
  const value = use(Context);
  if (!value) throw new Error("usePageTransition needs a PageTransitionProvider above it");
  return value;
}
