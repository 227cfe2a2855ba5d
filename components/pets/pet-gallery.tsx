"use client";

import { useTranslations } from "next-intl";

import { useState, type KeyboardEvent } from "react";
import type { Pet } from "@/lib/pets/schemas/pet";
import { PetCover, PhotoImage } from "@/components/pets/pet-photo";
import { focusRing } from "@/components/pets/styles";

/** The large photo is half the page from md up (PetProfile's grid), the whole width below. */
const MAIN_SIZES = "(min-width: 1152px) 560px, (min-width: 768px) 50vw, 100vw";

const frame = "aspect-[4/3] w-full rounded-2xl border border-stone-200 shadow-sm";

/**
 * An animal's photos: one large, the others as thumbnails below. Each
 * thumbnail is a button (Tab reaches it, Enter or Space shows it); Left and
 * Right arrows, Home and End step through the photos from anywhere in the
 * gallery, and a status line says which one is shown. Without photos it is
 * the animal's drawing.
 */
export function PetGallery({ pet, categoryName }: { pet: Pet; categoryName: string | undefined }) {
  const [chosen, setChosen] = useState(0);
  const t = useTranslations("Pet");
  const photos = pet.photos;
  // A photo deleted by staff while this page is open: stay within the list.
  const index = Math.min(chosen, Math.max(photos.length - 1, 0));
  const shown = photos[index];
  if (!shown || photos.length === 1) return <PetCover pet={pet} categoryName={categoryName} sizes={MAIN_SIZES} priority className={frame} />;

  const show = (next: number) => setChosen((next + photos.length) % photos.length);
  const onKeyDown = (event: KeyboardEvent) => {
    const step = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: photos.length - 1 }[event.key];
    if (step === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(step);
    // Keep the focus on the thumbnail of the photo now shown, so Tab order and the ring follow.
    const thumbs = event.currentTarget.querySelectorAll<HTMLButtonElement>("[data-thumb]");
    thumbs[(step + photos.length) % photos.length]?.focus();
  };

  return (
    <section aria-label={t("photosOf", { name: pet.name })} aria-roledescription="gallery" className="space-y-3" onKeyDown={onKeyDown}>
      <figure>
        {/* Whole, not cropped: an upright photo keeps its head and paws. */}
        <PhotoImage key={shown.id} photo={shown} sizes={MAIN_SIZES} priority={index === 0} fit="contain" className={frame} />
        {shown.alt && <figcaption className="sr-only">{shown.alt}</figcaption>}
      </figure>
      <div className="flex items-center justify-between gap-3">
        <p role="status" className="text-sm text-stone-700">
          Photo {index + 1} of {photos.length}
        </p>
        <p className="hidden text-sm text-stone-600 sm:block">{t("arrowKeys")}</p>
      </div>
      <ul className="grid grid-cols-5 gap-2">
        {photos.map((photo, i) => (
          <li key={photo.id}>
            <button
              type="button"
              data-thumb
              aria-current={i === index ? "true" : undefined}
              aria-label={
                photo.alt ? t("showPhotoAlt", { n: i + 1, total: photos.length, alt: photo.alt }) : t("showPhoto", { n: i + 1, total: photos.length })
              }
              onClick={() => show(i)}
              className={`block w-full overflow-hidden rounded-lg border-2 ${i === index ? "border-emerald-700" : "border-transparent hover:border-stone-400"} ${focusRing}`}
            >
              <PhotoImage photo={photo} alt="" sizes="120px" className="aspect-square w-full" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
