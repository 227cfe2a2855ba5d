"use client";

import { useSyncExternalStore } from "react";
import { parseSaved, removeSaved, SAVED_KEY, serializeSaved, toggleSaved, type SavedAnimal } from "@/lib/saved/saved";

// The saved animals as React sees them: one store over localStorage
// (lib/saved/saved.ts reads and changes its value), read with
// useSyncExternalStore so every heart, the header's count and /saved agree,
// in this tab (its own writes notify) and in every other one (the `storage`
// event, which browsers fire in the other tabs of the origin). The server
// knows nothing saved: it renders every heart unpressed, and the browser's
// first render after hydration shows what is saved.

const EMPTY: SavedAnimal[] = [];
const listeners = new Set<() => void>();

// The last value read and what it parsed to: getSnapshot must return the
// same array until the value changes, or React renders forever.
let lastRaw: string | null = null;
let last: SavedAnimal[] = EMPTY;
// When the browser refuses storage (some private modes, a full quota), the
// tab keeps its list in memory: the hearts still work until the tab closes.
let memory: string | null | undefined;

function readRaw(): string | null {
  if (memory !== undefined) return memory;
  try {
    return window.localStorage.getItem(SAVED_KEY);
  } catch {
    return null;
  }
}

function snapshot(): SavedAnimal[] {
  const raw = readRaw();
  if (raw !== lastRaw) {
    lastRaw = raw;
    last = raw ? parseSaved(raw) : EMPTY;
  }
  return last;
}

const serverSnapshot = () => EMPTY;

function onStorage(event: StorageEvent) {
  // key null: another tab cleared the whole storage.
  if (event.key === SAVED_KEY || event.key === null) listeners.forEach((notify) => notify());
}

function subscribe(notify: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(notify);
  return () => {
    listeners.delete(notify);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

function write(next: SavedAnimal[]) {
  const raw = serializeSaved(next);
  try {
    if (memory === undefined) window.localStorage.setItem(SAVED_KEY, raw);
    else memory = raw;
  } catch {
    memory = raw;
  }
  listeners.forEach((notify) => notify());
}

/** The saved animals, oldest first; none on the server and during hydration. */
export function useSaved(): SavedAnimal[] {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}

export function toggleSavedAnimal(pet: { id: number; name: string }): void {
  write(toggleSaved(snapshot(), pet, new Date()));
}

export function removeSavedAnimal(id: number): void {
  write(removeSaved(snapshot(), id));
}
