import type { ReactNode } from "react";
import { AGE_HINTS, AGE_LABELS, GOOD_WITH, GOOD_WITH_LABELS, SEX_LABELS, SIZE_LABELS } from "@/lib/pets/profile";
import type { Pet, PetStatus } from "@/lib/pets/schemas";
import { PetGallery } from "@/components/pets/pet-gallery";
import { StatusBadge } from "@/components/pets/status-badge";

const STATUS_NOTES: Record<PetStatus, string> = {
  available: "Waiting for a home: apply to adopt below, and the shelter will get in touch.",
  pending: "Someone has applied to adopt this animal, and the adoption is being arranged.",
  sold: "This animal has already found a home.",
};

// Fixed locale and zone: the server's render and the browser's must print
// the same words, whatever either is set to.
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** "Young (1 to 3 years), born about 12 March 2024"; null when the birth date is unknown. */
export function ageText(pet: Pet): string | null {
  if (!pet.birthDate || !pet.ageGroup) return null;
  return `${AGE_LABELS[pet.ageGroup]} (${AGE_HINTS[pet.ageGroup]}), born about ${DAY.format(new Date(`${pet.birthDate}T00:00:00Z`))}`;
}

const ANSWERS = { true: "yes", false: "no", null: "not known" } as const;

/** One animal, large: its photos, name (always as text), profile, description and status. */
export function PetProfile({ pet, categoryName, actions }: { pet: Pet; categoryName: string | undefined; /** Beside the name: the Save toggle. */ actions?: ReactNode }) {
  const age = ageText(pet);
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
          {row("Category", categoryName ?? "Unknown category")}
          {pet.breed && row("Breed", pet.breed)}
          {row("Sex", pet.sex === "unknown" ? "Not known" : SEX_LABELS[pet.sex])}
          {row("Age", age ?? "Not known")}
          {row("Size", pet.size ? SIZE_LABELS[pet.size] : "Not known")}
          {row(
            "Good with",
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {GOOD_WITH.map((kind) => (
                <li key={kind}>
                  {GOOD_WITH_LABELS[kind]}: {ANSWERS[String(pet.goodWith[kind]) as keyof typeof ANSWERS]}
                </li>
              ))}
            </ul>,
          )}
          <dt className="font-semibold text-stone-700">Status</dt>
          <dd>
            <StatusBadge status={pet.status} size="lg" />
          </dd>
          {row("Reference", <span className="font-mono">#{pet.id}</span>)}
        </dl>
        <p className="text-lg text-stone-800">{STATUS_NOTES[pet.status]}</p>
        {pet.description && (
          <section aria-labelledby="about-heading" className="space-y-2">
            <h2 id="about-heading" className="text-xl font-semibold text-stone-900">
              About {pet.name}
            </h2>
            {/* Plain text with its line breaks kept; React escapes it, so markup in it is shown as typed. */}
            <p className="whitespace-pre-line text-stone-800 wrap-anywhere">{pet.description}</p>
          </section>
        )}
      </div>
    </article>
  );
}
