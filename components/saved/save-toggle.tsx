"use client";

import { useTranslations } from "next-intl";

import { HeartIcon, useSaveToggle } from "@/components/saved/save-button";

/** The animal page's Save toggle: the card's heart (save-button.tsx) with its word, "Save" or "Saved". */
export function SaveToggle({ pet }: { pet: { id: number; name: string } }) {
  const t = useTranslations("Common");
  const { saved, toggle } = useSaveToggle(pet, { saveName: t("saveName", { name: pet.name }), saved: t("saved") });
  return (
    <button
      {...toggle}
      className={`inline-flex items-center gap-2 rounded-md border px-3 py-2 text-base font-semibold shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 ${
        saved ? "border-rose-300 bg-rose-50 text-rose-800 hover:bg-rose-100" : "border-stone-400 bg-white text-stone-800 hover:bg-stone-100"
      }`}
    >
      <HeartIcon filled={saved} />
      {saved ? t("saved") : t("save")}
    </button>
  );
}
