import type { ReactNode } from "react";
import { AGE_HINTS, AGE_LABELS, COAT_LABELS, GOOD_WITH, GOOD_WITH_LABELS, SEX_LABELS, SIZE_LABELS } from "@/lib/pets/profile";
import type { Pet, PetStatus } from "@/lib/pets/schemas";
import { PetFacts, breedText } from "@/components/pets/pet-facts";
import { PetGallery } from "@/components/pets/pet-gallery";
import { PetVideo } from "@/components/pets/pet-video";
import { StatusBadge } from "@/components/pets/status-badge";

/** Every string of the profile, in one place. */
const TEXT = {
  statusNotes: {
    available: "Waiting for a home: apply to adopt below, and the shelter will get in touch.",
    pending: "Someone has applied to adopt this animal, and the adoption is being arranged.",
    sold: "This animal has already found a home.",
  } satisfies Record<PetStatus, string>,
  category: "Category",
  unknownCategory: "Unknown category",
  breed: "Breed",
  colors: "Colours",
  coat: "Coat",
  sex: "Sex",
  age: "Age",
  size: "Size",
  goodWith: "Good with",
  status: "Status",
  reference: "Reference",
  shelterId: (id: string) => `shelter’s ID ${id}`,
  notKnown: "Not known",
  answers: { true: "yes", false: "no", null: "not known" },
  about: (name: string) => `About ${name}`,
  tags: (name: string) => `${name} in a few words`,
  born: (group: string, hint: string, day: string) => `${group} (${hint}), born about ${day}`,
} as const;

// Fixed locale and zone: the server's render and the browser's must print
// the same words, whatever either is set to.
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** "Young (1 to 3 years), born about 12 March 2024"; null when the birth date is unknown. */
export function ageText(pet: Pet): string | null {
  if (!pet.birthDate || !pet.ageGroup) return null;
  return TEXT.born(AGE_LABELS[pet.ageGroup], AGE_HINTS[pet.ageGroup], DAY.format(new Date(`${pet.birthDate}T00:00:00Z`)));
}

/** One animal, large: its photos, name (always as text), profile, what is known of its care, description, tags, video and status. */
export function PetProfile({ pet, categoryName, actions }: { pet: Pet; categoryName: string | undefined; /** Beside the name: the Save toggle. */ actions?: ReactNode }) {
  const age = ageText(pet);
  const breed = breedText(pet);
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
          {row(TEXT.category, categoryName ?? TEXT.unknownCategory)}
          {breed && row(TEXT.breed, breed)}
          {pet.colors.length > 0 && row(TEXT.colors, pet.colors.join(", "))}
          {pet.coatLength && row(TEXT.coat, COAT_LABELS[pet.coatLength])}
          {row(TEXT.sex, pet.sex === "unknown" ? TEXT.notKnown : SEX_LABELS[pet.sex])}
          {row(TEXT.age, age ?? TEXT.notKnown)}
          {row(TEXT.size, pet.size ? SIZE_LABELS[pet.size] : TEXT.notKnown)}
          {row(
            TEXT.goodWith,
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {GOOD_WITH.map((kind) => (
                <li key={kind}>
                  {GOOD_WITH_LABELS[kind]}: {TEXT.answers[String(pet.goodWith[kind]) as keyof typeof TEXT.answers]}
                </li>
              ))}
            </ul>,
          )}
          <dt className="font-semibold text-stone-700">{TEXT.status}</dt>
          <dd>
            <StatusBadge status={pet.status} size="lg" />
          </dd>
          {row(
            TEXT.reference,
            <>
              <span className="font-mono">#{pet.id}</span>
              {pet.externalId && (
                <>
                  {" · "}
                  {TEXT.shelterId(pet.externalId)}
                </>
              )}
            </>,
          )}
        </dl>
        <p className="text-lg text-stone-800">{TEXT.statusNotes[pet.status]}</p>
        <PetFacts pet={pet} />
        {pet.description && (
          <section aria-labelledby="about-heading" className="space-y-2">
            <h2 id="about-heading" className="text-xl font-semibold text-stone-900">
              {TEXT.about(pet.name)}
            </h2>
            {/* Plain text with its line breaks kept; React escapes it, so markup in it is shown as typed. */}
            <p className="whitespace-pre-line text-stone-800 wrap-anywhere">{pet.description}</p>
          </section>
        )}
        {pet.tags.length > 0 && (
          <ul aria-label={TEXT.tags(pet.name)} className="flex flex-wrap gap-2">
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
