import type { Metadata } from "next";
import { Providers } from "@/components/providers";
import { SavedList } from "@/components/saved/saved-list";

export const metadata: Metadata = { title: "Saved animals" };

// /saved - the animals saved in this browser (localStorage), each fetched fresh
// from /v1/pets so that one adopted meanwhile says so. Nothing to render on the
// server: only the browser knows what it saved.
export default function SavedPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-stone-900 sm:text-3xl">Saved animals</h1>
        <p className="mt-1 text-stone-700">Kept in this browser only: no account needed. Tap the heart on an animal to add or remove it.</p>
      </div>
      <Providers>
        <SavedList />
      </Providers>
    </div>
  );
}
