import { useLocale, useTranslations } from "next-intl";
import { useLocalePath } from "@/lib/i18n/paths";
import { categoryLabel, milesAwayLabel } from "@/lib/i18n/words";
import type { CardPet, ShelterSummary } from "@/components/pets/browse-query";
import type { Category, Pet } from "@/lib/pets/schemas/pet";
import { PetCover } from "@/components/pets/pet-photo";
import { SaveButton } from "@/components/saved/save-button";
import { StatusBadge } from "@/components/pets/status-badge";

/**
 * A card's width in the grid (GRID in pet-browser.tsx: 1 column, 2 from
 * 640 px, 3 from 1024, 4 from 1280, 1 rem apart, in main's max-w-6xl with
 * 1 rem each side), so the browser fetches the variant the card needs: on a
 * 390 px phone 358 px, not the screen's 390.
 */
const CARD_SIZES = "(min-width: 1280px) 268px, (min-width: 1024px) calc((100vw - 64px) / 3), (min-width: 640px) calc((100vw - 48px) / 2), calc(100vw - 32px)";

/** An animal as its card shows it: the cover alone of its photos. */
export function cardPet(pet: Pet): CardPet {
  const { id, name, breed, categoryId, organizationId, sex, ageGroup, size, status, distanceKm, photos } = pet;
  return { id, name, breed, categoryId, organizationId, sex, ageGroup, size, status, distanceKm, photos: photos.slice(0, 1) };
}

/** "Female · Young · Medium": what is known, in the order adopters look for it, in the page's language (`words`: the "Words" messages). */
export function profileLine(pet: Pick<Pet, "sex" | "ageGroup" | "size">, words: (key: string) => string): string {
  return [
    pet.sex === "unknown" ? undefined : words(`sex.${pet.sex}`),
    pet.ageGroup ? words(`age.${pet.ageGroup}`) : undefined,
    pet.size ? words(`size.${pet.size}`) : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
}

/**
 * One animal in the grid. The name is the link (a short accessible name);
 * its ::after covers the card, so the whole card is clickable, and the card
 * shows the focus ring when the link has keyboard focus.
 */
/** "Evanston Animal Friends · Evanston, IL": where the animal is. */
function shelterLine(shelter: ShelterSummary): string {
  const place = [shelter.city, shelter.region].filter(Boolean).join(", ");
  return place ? `${shelter.name} · ${place}` : shelter.name;
}

export function PetCard({
  pet,
  categoryName,
  shelter,
  priority = false,
  eager = false,
}: {
  pet: CardPet;
  categoryName: string | undefined;
  /** Its shelter, when the service has several (else the line is left out, as in a one-shelter install). */
  shelter?: ShelterSummary;
  priority?: boolean;
  eager?: boolean;
}) {
  const words = useTranslations("Words");
  const common = useTranslations("Common");
  const locale = useLocale();
  const to = useLocalePath();
  const profile = profileLine(pet, words);
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition-shadow hover:shadow-md has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-emerald-700">
      <PetCover pet={pet} categoryName={categoryName} sizes={CARD_SIZES} priority={priority} eager={eager} className="aspect-[4/3] w-full" />
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 className="text-lg font-semibold text-stone-900 wrap-anywhere">
          {/* A plain link (a full page load of the server-rendered animal page):
              next/link would add its 2.5 kB to the first page's JavaScript, and
              prefetching a grid of up to 100 would each cost a rate-limited render. */}
          <a href={to(`/pets/${pet.id}`)} className="after:absolute after:inset-0 hover:underline focus-visible:outline-none">
            {pet.name}
          </a>
        </h3>
        <p className="text-sm text-stone-700">
          {categoryLabel(words, categoryName)}
          {pet.breed ? <span className="wrap-anywhere"> · {pet.breed}</span> : null}
        </p>
        {profile && <p className="text-sm text-stone-700">{profile}</p>}
        {(shelter || pet.distanceKm !== undefined) && (
          <p className="text-sm text-stone-700">
            {shelter && <span className="wrap-anywhere">{shelterLine(shelter)}</span>}
            {pet.distanceKm !== undefined && (
              <span className="font-semibold text-emerald-900">
                {shelter ? " · " : ""}
                {milesAwayLabel(words, pet.distanceKm, locale)}
              </span>
            )}
          </p>
        )}
        <p className="mt-auto pt-2">
          <StatusBadge status={pet.status} />
        </p>
      </div>
      {/* Over the cover, above the link that covers the card, and after the name in
          the tab order (name, then its heart): the card's one client component. */}
      <SaveButton pet={{ id: pet.id, name: pet.name }} labels={{ saveName: common("saveName", { name: pet.name }), saved: common("saved") }} />
    </article>
  );
}

/**
 * A page of cards, an <li> each: the browse page's first page drawn on the
 * server (app/(site)/page.tsx), any other in the browser (browse-later.ts).
 */
export function PetCards({ pets, categories, shelters }: { pets: CardPet[]; categories: Category[] | undefined; shelters?: Record<number, ShelterSummary> }) {
  const categoryNames = new Map(categories?.map((c) => [c.id, c.name]));
  return pets.map((pet, index) => (
    <li key={pet.id}>
      {/* The first card's cover is the page's largest paint on every screen:
          it alone is fetched first (on a phone the other three of a wide
          screen's first row would share its bandwidth). The rest of that row
          is fetched at once, the others as they scroll near. */}
      <PetCard
        pet={pet}
        categoryName={categoryNames.get(pet.categoryId)}
        shelter={shelters?.[pet.organizationId]}
        priority={index === 0}
        eager={index > 0 && index < 4}
      />
    </li>
  ));
}
