import type { ReactNode } from "react";
import { useLocale, useTranslations } from "next-intl";
import { categoryLabel } from "@/lib/i18n/words";
import { GOOD_WITH } from "@/lib/pets/profile";
import type { Pet } from "@/lib/pets/schemas/pet";
import { PetFacts, breedText, dayText, type PetT } from "@/components/pets/pet-facts";
import { PetGallery } from "@/components/pets/pet-gallery";
import { PetVideo } from "@/components/pets/pet-video";
import { StatusBadge } from "@/components/pets/status-badge";

/** "Young (1 to 3 years), born about 12 March 2024"; null when the birth date is unknown. */
export function ageText(pet: Pet, t: PetT, words: PetT, locale: string): string | null {
  if (!pet.birthDate || !pet.ageGroup) return null;
  return t("born", { group: words(`age.${pet.ageGroup}`), hint: words(`ageHint.${pet.ageGroup}`), day: dayText(pet.birthDate, locale) });
}

/** "Lives in a foster home in Brooklyn, NY" (the city as its organisation shows it), or without the place when the city is not shown. */
function fosterHomeText(pet: Pet, t: PetT): string {
  const city = pet.fosterHome?.city;
  if (!city) return t("fosterHome");
  return t("fosterHomeIn", { place: pet.fosterHome?.region ? `${city}, ${pet.fosterHome.region}` : city });
}

/** One animal, large: its photos, name (always as text), profile, what is known of its care, description, tags, video and status. */
export function PetProfile({
  pet,
  categoryName,
  actions,
}: {
  pet: Pet;
  categoryName: string | undefined;
  /** Beside the name: the Save toggle. */ actions?: ReactNode;
}) {
  const t = useTranslations("Pet");
  const words = useTranslations("Words");
  const locale = useLocale();
  const age = ageText(pet, t, words, locale);
  const breed = breedText(pet, t);
  const row = (term: string, value: ReactNode) => (
    <>
      <dt className="font-semibold text-stone-700">{term}</dt>
      <dd className="min-w-0 text-stone-900 wrap-anywhere">{value}</dd>
    </>
  );
  return (
    <article className="grid items-start gap-8 md:grid-cols-2">
      <PetGallery pet={pet} categoryName={categoryName} />
      <div className="min-w-0 space-y-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 className="text-4xl font-bold text-stone-900 wrap-anywhere">{pet.name}</h1>
          {actions}
        </div>
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-6 gap-y-3">
          {row(t("category"), categoryLabel(words, categoryName))}
          {breed && row(t("breed"), breed)}
          {pet.colors.length > 0 && row(t("colors"), pet.colors.join(", "))}
          {pet.coatLength && row(t("coat"), t(`coatLength.${pet.coatLength}`))}
          {row(t("sex"), pet.sex === "unknown" ? t("notKnown") : words(`sex.${pet.sex}`))}
          {row(t("age"), age ?? t("notKnown"))}
          {row(t("size"), pet.size ? words(`size.${pet.size}`) : t("notKnown"))}
          {row(
            t("goodWith"),
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {GOOD_WITH.map((kind) => (
                <li key={kind}>
                  {words(`goodWith.${kind}`)}: {t("answer", { answer: String(pet.goodWith[kind]) })}
                </li>
              ))}
            </ul>,
          )}
          <dt className="font-semibold text-stone-700">{t("status")}</dt>
          <dd>
            <StatusBadge status={pet.status} size="lg" />
          </dd>
          {row(
            t("reference"),
            <>
              <span className="font-mono">#{pet.id}</span>
              {pet.externalId && (
                <>
                  {" · "}
                  {t("shelterId", { id: pet.externalId })}
                </>
              )}
            </>,
          )}
        </dl>
        <p className="text-lg text-stone-800">{t("statusNote", { status: pet.status })}</p>
        {pet.inFosterHome && (
          <p data-testid="foster-home" className="text-lg text-stone-800">
            {fosterHomeText(pet, t)}
          </p>
        )}
        <PetFacts pet={pet} />
        {pet.description && (
          <section aria-labelledby="about-heading" className="space-y-2">
            <h2 id="about-heading" className="text-xl font-semibold text-stone-900">
              {t("about", { name: pet.name })}
            </h2>
            {/* Plain text with its line breaks kept; React escapes it, so markup in it is shown as typed. */}
            <p className="whitespace-pre-line text-stone-800 wrap-anywhere">{pet.description}</p>
          </section>
        )}
        {pet.tags.length > 0 && (
          <ul aria-label={t("tags", { name: pet.name })} className="flex flex-wrap gap-2">
            {pet.tags.map((tag) => (
              <li key={tag} className="rounded-full border border-emerald-700/40 bg-emerald-50 px-3 py-1 text-sm text-emerald-900 wrap-anywhere">
                {tag}
              </li>
            ))}
          </ul>
        )}
        {pet.videoUrl && <PetVideo url={pet.videoUrl} petName={pet.name} />}
      </div>
    </article>
  );
}
