import { formatAmount } from "@/lib/pets/adoption-fee";
import type { Pet } from "@/lib/pets/schemas";

// What the shelter knows of an animal's care, in plain words: "Spayed",
// "House-trained", "Shots up to date", "Adoption fee $150". An answer not
// known says nothing at all (never "no").

/** Every string of the facts, in one place. */
const TEXT = {
  heading: "Good to know",
  spayedNeutered: { female: "Spayed", male: "Neutered", unknown: "Spayed/neutered" },
  notSpayedNeutered: { female: "Not spayed", male: "Not neutered", unknown: "Not spayed/neutered" },
  houseTrained: "House-trained",
  notHouseTrained: "Not house-trained",
  shotsCurrent: "Shots up to date",
  notShotsCurrent: "Shots not up to date",
  declawed: "Declawed",
  notDeclawed: "Not declawed",
  specialNeeds: "Special needs",
  noSpecialNeeds: "No special needs",
  fee: (amount: string) => `Adoption fee ${amount}`,
  feeWaived: "Fee waived",
  intake: (day: string) => `At the shelter since ${day}`,
  mixed: "mix",
  mixedBreed: "Mixed breed",
  purebred: "purebred",
} as const;

// Fixed locale and zone: the server's render and the browser's print the same words.
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** "Labrador / Border collie mix", "Mixed breed", "Siamese, purebred"; null when nothing is known. */
export function breedText(pet: Pet): string | null {
  const names = [pet.breed, pet.secondaryBreed].filter((b): b is string => !!b);
  if (names.length === 0) return pet.mixedBreed ? TEXT.mixedBreed : null;
  const breeds = names.join(" / ");
  if (pet.mixedBreed === true) return /\bmix\b|\bcross\b/i.test(breeds) ? breeds : `${breeds} ${TEXT.mixed}`;
  if (pet.mixedBreed === false) return `${breeds}, ${TEXT.purebred}`;
  return breeds;
}

/** The fee in words, or null when not known. */
export function feeText(pet: Pet): string | null {
  if (!pet.adoptionFee) return null;
  return pet.adoptionFee.waived ? TEXT.feeWaived : TEXT.fee(formatAmount(pet.adoptionFee.amountCents, pet.adoptionFee.currency));
}

/** Each known answer as words, in a fixed order; the unknown ones are left out. */
export function careFacts(pet: Pet): { key: string; text: string; detail?: string }[] {
  const facts: { key: string; text: string; detail?: string }[] = [];
  const answer = (key: string, value: boolean | null, yes: string, no: string) => {
    if (value !== null) facts.push({ key, text: value ? yes : no });
  };
  answer("spayedNeutered", pet.spayedNeutered, TEXT.spayedNeutered[pet.sex], TEXT.notSpayedNeutered[pet.sex]);
  answer("houseTrained", pet.houseTrained, TEXT.houseTrained, TEXT.notHouseTrained);
  answer("shotsCurrent", pet.shotsCurrent, TEXT.shotsCurrent, TEXT.notShotsCurrent);
  answer("declawed", pet.declawed, TEXT.declawed, TEXT.notDeclawed);
  if (pet.specialNeeds === true) facts.push({ key: "specialNeeds", text: TEXT.specialNeeds, ...(pet.specialNeedsNotes ? { detail: pet.specialNeedsNotes } : {}) });
  if (pet.specialNeeds === false) facts.push({ key: "specialNeeds", text: TEXT.noSpecialNeeds });
  const fee = feeText(pet);
  if (fee) facts.push({ key: "adoptionFee", text: fee });
  if (pet.intakeDate) facts.push({ key: "intakeDate", text: TEXT.intake(DAY.format(new Date(`${pet.intakeDate}T00:00:00Z`))) });
  return facts;
}

/** The known facts as a list under a heading; nothing at all when none is known. */
export function PetFacts({ pet }: { pet: Pet }) {
  const facts = careFacts(pet);
  if (facts.length === 0) return null;
  return (
    <section aria-labelledby="facts-heading" className="space-y-2">
      <h2 id="facts-heading" className="text-xl font-semibold text-stone-900">
        {TEXT.heading}
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
