"use client";

import { countArgs } from "@/lib/i18n/numbers";
import { useLocalePath, usePageLocale } from "@/lib/i18n/paths";

import { useTranslations } from "next-intl";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { profileLine } from "@/components/pets/pet-card";
import { PetCover } from "@/components/pets/pet-photo";
import { SaveButton } from "@/components/saved/save-button";
import { removeSavedAnimal, useSaved } from "@/components/saved/saved-store";
import { useHydrated } from "@/components/use-hydrated";
import { linkClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";
import type { Pet } from "@/lib/pets/schemas/pet";
import type { PetStatus } from "@/lib/pets/schemas/fields";
import type { SavedAnimal } from "@/lib/saved/saved";
import { idChunks, newestFirst } from "@/lib/saved/saved-view";

const STATUS_STYLES: Record<PetStatus, string> = {
  available: "border-emerald-300 bg-emerald-50 text-emerald-900",
  pending: "border-amber-300 bg-amber-50 text-amber-900",
  sold: "border-rose-300 bg-rose-50 text-rose-900",
};

/** The saved animals as the API has them now, by id; an id missing from it is no longer listed. */
async function fetchSaved(ids: number[], signal: AbortSignal): Promise<Map<number, Pet>> {
  const pages = await Promise.all(
    // Every status (the list's default), at most 100 ids a request.
    idChunks(ids).map((chunk) => callApi((api) => api.GET("/pets", { params: { query: { id: chunk, limit: 100 } }, signal }))),
  );
  return new Map(pages.flatMap((page) => page.data.map((pet) => [pet.id, pet] as const)));
}

/**
 * /saved's list: what this browser saved (newest first), each with its
 * current status, fetched fresh. An adopted animal stays, marked Adopted;
 * one that is no longer listed at all keeps its saved name and a Remove
 * button. Saving or removing in another tab shows here at once.
 */
export function SavedList() {
  const hydrated = useHydrated();
  const t = useTranslations("Saved");
  const locale = usePageLocale();
  const to = useLocalePath();
  const saved = useSaved();
  const ids = saved.map((s) => s.id).sort((a, b) => a - b);
  const pets = useQuery({
    queryKey: ["saved-pets", ids],
    queryFn: ({ signal }) => fetchSaved(ids, signal),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });

  if (!hydrated) {
    return (
      <p role="status" className="text-stone-700">
        {t("loading")}
      </p>
    );
  }
  if (saved.length === 0) {
    return (
      <section aria-labelledby="saved-empty" className="rounded-xl border border-stone-200 bg-white px-6 py-8 text-center shadow-sm">
        <h2 id="saved-empty" className="text-xl font-semibold text-stone-900">
          {t("emptyHeading")}
        </h2>
        <p className="mt-2 text-stone-700">{t("emptyText")}</p>
        <p className="mt-4">
          <a href={to("/")} className={primaryButtonClass}>
            {t("browse")}
          </a>
        </p>
      </section>
    );
  }
  if (pets.error && !pets.data) {
    return (
      <div role="alert" className="rounded-xl border border-red-300 bg-red-50 px-6 py-6">
        <h2 className="text-xl font-bold text-red-900">{t("loadFailed")}</h2>
        <p className="mt-2 text-red-900">{locale === "en" ? describeError(pets.error) : t("genericError")}</p>
        <button type="button" className={`${primaryButtonClass} mt-4`} onClick={() => void pets.refetch()}>
          {t("tryAgain")}
        </button>
      </div>
    );
  }
  const found = pets.data;
  return (
    <section aria-labelledby="saved-heading" className="space-y-3">
      <h2 id="saved-heading" className="sr-only">
        {t("yourSaved")}
      </h2>
      <p role="status" className="text-sm text-stone-700">
        {!found ? t("loading") : t("count", countArgs(saved.length, locale))}
      </p>
      <ul aria-labelledby="saved-heading" aria-busy={pets.isFetching} className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {newestFirst(saved).map((entry) => (
          <li key={entry.id}>
            <SavedItem entry={entry} pet={found?.get(entry.id)} loading={!found || pets.isPlaceholderData} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function SavedItem({ entry, pet, loading }: { entry: SavedAnimal; pet: Pet | undefined; loading: boolean }) {
  const words = useTranslations("Words");
  const t = useTranslations("Saved");
  const common = useTranslations("Common");
  const to = useLocalePath();
  if (!pet) {
    return (
      <article aria-label={entry.name} className="flex h-full flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
        <h3 className="text-lg font-semibold text-stone-900 wrap-anywhere">{entry.name}</h3>
        {loading ? (
          <p className="text-sm text-stone-700">{t("loadingOne")}</p>
        ) : (
          <>
            <p className="text-sm font-semibold text-stone-700">{t("noLongerListed")}</p>
            <p className="text-sm text-stone-700">{t("takenOff")}</p>
            <p className="mt-auto pt-2">
              <button type="button" className={secondaryButtonClass} onClick={() => removeSavedAnimal(entry.id)}>
                {t.rich("remove", { name: entry.name, sr: (chunks) => <span className="sr-only">{chunks}</span> })}
              </button>
            </p>
          </>
        )}
      </article>
    );
  }
  const profile = profileLine(pet, words);
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm">
      <PetCover pet={pet} categoryName={undefined} sizes="(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw" className="aspect-[4/3] w-full" />
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 className="text-lg font-semibold text-stone-900 wrap-anywhere">
          <a href={to(`/pets/${pet.id}`)} className={linkClass}>
            {pet.name}
          </a>
        </h3>
        {pet.breed ? <p className="text-sm text-stone-700 wrap-anywhere">{pet.breed}</p> : null}
        {profile ? <p className="text-sm text-stone-700">{profile}</p> : null}
        <p className="mt-auto pt-2">
          <span
            data-status={pet.status}
            className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-sm font-semibold ${STATUS_STYLES[pet.status]}`}
          >
            {t(`status.${pet.status}`)}
          </span>
        </p>
      </div>
      <SaveButton pet={{ id: pet.id, name: pet.name }} labels={{ saveName: common("saveName", { name: pet.name }), saved: common("saved") }} />
    </article>
  );
}
