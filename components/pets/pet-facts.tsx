import { useLocale, useTranslations } from "next-intl";
import { formatAmount } from "@/lib/pets/adoption-fee";
import type { Pet } from "@/lib/pets/schemas/pet";

// What the shelter knows of an animal's care, in plain words: "Spayed",
// "House-trained", "Shots up to date", "Adoption fee $150". An answer not
// known says nothing at all (never "no").

/** next-intl's translator for the "Pet" messages (useTranslations or getTranslations). */
export type PetT = (key: string, values?: Record<string, string | number>) => string;

/**
 * A calendar day in the page's language: "12 March 2024", "12 de marzo de
 * 2024". Fixed zone: the server's render and the browser's print the same words.
 */
export function dayText(isoDay: string, locale: string): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );
}

/** "Labrador / Border collie mix", "Mixed breed", "Siamese, purebred"; null when nothing is known. */
export function breedText(pet: Pet, t: PetT): string | null {
  const names = [pet.breed, pet.secondaryBreed].filter((b): b is string => !!b);
  if (names.length === 0) return pet.mixedBreed ? t("mixedBreed") : null;
  const breeds = names.join(" / ");
  if (pet.mixedBreed === true) return /\bmix\b|\bcross\b/i.test(breeds) ? breeds : t("mix", { breeds });
  if (pet.mixedBreed === false) return t("purebred", { breeds });
  return breeds;
}

/** The fee in words, or null when not known. */
export function feeText(pet: Pet, t: PetT, locale: string): string | null {
  if (!pet.adoptionFee) return null;
  return pet.adoptionFee.waived ? t("feeWaived") : t("fee", { amount: formatAmount(pet.adoptionFee.amountCents, pet.adoptionFee.currency, locale) });
}

/** Each known answer as words, in a fixed order; the unknown ones are left out. */
export function careFacts(pet: Pet, t: PetT, locale: string): { key: string; text: string; detail?: string }[] {
  const facts: { key: string; text: string; detail?: string }[] = [];
  const answer = (key: string, value: boolean | null, yes: string, no: string) => {
    if (value !== null) facts.push({ key, text: value ? yes : no });
  };
  answer("spayedNeutered", pet.spayedNeutered, t("spayedNeutered", { sex: pet.sex }), t("notSpayedNeutered", { sex: pet.sex }));
  answer("houseTrained", pet.houseTrained, t("houseTrained"), t("notHouseTrained"));
  answer("shotsCurrent", pet.shotsCurrent, t("shotsCurrent"), t("notShotsCurrent"));
  answer("declawed", pet.declawed, t("declawed"), t("notDeclawed"));
  if (pet.specialNeeds === true)
    facts.push({ key: "specialNeeds", text: t("specialNeeds"), ...(pet.specialNeedsNotes ? { detail: pet.specialNeedsNotes } : {}) });
  if (pet.specialNeeds === false) facts.push({ key: "specialNeeds", text: t("noSpecialNeeds") });
  const fee = feeText(pet, t, locale);
  if (fee) facts.push({ key: "adoptionFee", text: fee });
  if (pet.intakeDate) facts.push({ key: "intakeDate", text: t("intake", { day: dayText(pet.intakeDate, locale) }) });
  return facts;
}

/** The known facts as a list under a heading; nothing at all when none is known. */
export function PetFacts({ pet }: { pet: Pet }) {
  const t = useTranslations("Pet");
  const facts = careFacts(pet, t, useLocale());
  if (facts.length === 0) return null;
  return (
    <section aria-labelledby="facts-heading" className="space-y-2">
      <h2 id="facts-heading" className="text-xl font-semibold text-stone-900">
        {t("factsHeading")}
      </h2>
      <ul className="space-y-1.5" data-facts>
        {facts.map((fact) => (
          <li key={fact.key} data-fact={fact.key} className="flex items-start gap-2 text-stone-800">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-1 size-4 shrink-0 fill-emerald-700">
              <circle cx="10" cy="10" r="4" />
            </svg>
            <span className="min-w-0 wrap-anywhere">
              {fact.detail ? (
                <>
                  <strong className="font-semibold">{fact.text}:</strong> {fact.detail}
                </>
              ) : (
                fact.text
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
