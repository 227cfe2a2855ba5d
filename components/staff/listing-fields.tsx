"use client";

import { useFormContext } from "react-hook-form";
import { AnswerSelect } from "@/components/staff/answer-select";
import { FeeFields } from "@/components/staff/fee-fields";
import { FormField } from "@/components/staff/form-field";
import { textOrNull, today } from "@/components/staff/pet-fields";
import { hintClass, labelClass } from "@/components/staff/styles";
import { WordListInput } from "@/components/staff/word-list-input";
import { COAT_LENGTHS, PROFILE_ANSWERS, type ProfileAnswer } from "@/lib/pets/profile";
import { COAT_LABELS, LISTING_LABELS } from "@/lib/pets/profile-labels";
import { BIRTH_DATE_MIN, BREED_MAX, COLORS_MAX, EXTERNAL_ID_MAX, SPECIAL_NEEDS_NOTES_MAX, TAGS_MAX, TAG_MAX } from "@/lib/pets/schemas/fields";
import { type NewPetInput } from "@/lib/pets/schemas/pet";

// The profile in the listing sites' words, on the add and edit forms alike:
// the shelter's own ID, the second breed, colours and coat, the care
// answers (yes / no / not known), the fee, the day the animal came in, a
// video, tags, and whether it goes to the listing sites. Named as in the
// API, so a server error's `field` lands on its control.

export type ListingInput = Pick<
  NewPetInput,
  | "externalId"
  | "secondaryBreed"
  | "mixedBreed"
  | "colors"
  | "coatLength"
  | "spayedNeutered"
  | "houseTrained"
  | "declawed"
  | "shotsCurrent"
  | "specialNeeds"
  | "specialNeedsNotes"
  | "adoptionFee"
  | "intakeDate"
  | "videoUrl"
  | "tags"
  | "listOnOtherSites"
>;

/** Every string of the section, in one place. */
const TEXT = {
  legend: "For the listing sites",
  intro: "What Petfinder, Adopt-a-Pet and RescueGroups ask about an animal. Leave what you do not know.",
  externalIdHint: `Your own ID for the animal (from your shelter software), up to ${EXTERNAL_ID_MAX} characters; each animal of your shelter has its own.`,
  secondaryBreedHint: `Up to ${BREED_MAX} characters, e.g. “Border collie”.`,
  colorsHint: `Up to ${COLORS_MAX}, main colour first, separated by commas, e.g. “Black, White”.`,
  coatUnknown: "Not known",
  care: "Care and health",
  notesHint: (length: number) => `What the special needs are. ${length.toLocaleString("en")} of ${SPECIAL_NEEDS_NOTES_MAX} characters.`,
  intakeHint: "The day the animal came to you.",
  videoHint: "A YouTube or Vimeo address (youtube.com/watch?v=…, youtu.be/…, vimeo.com/…). Visitors play it on the animal's page.",
  tagsHint: `Up to ${TAGS_MAX} words or short phrases of up to ${TAG_MAX} characters, separated by commas, e.g. “Playful, Loves car rides”. Repeats are dropped.`,
  listOnOtherSitesHint: "When your shelter sends its animals to Petfinder, Adopt-a-Pet or RescueGroups, this one goes too. Switch it off to keep it here only.",
} as const;

/** The labels the forms map a server error's `field` to: every field, and each part of the fee. */
export const LISTING_FIELD_LABELS = {
  ...LISTING_LABELS,
  "adoptionFee.amountCents": LISTING_LABELS.adoptionFee,
  "adoptionFee.currency": LISTING_LABELS.adoptionFee,
  "adoptionFee.waived": LISTING_LABELS.adoptionFee,
} as const;

/** The care questions (mixedBreed sits with the breeds). */
const CARE: ProfileAnswer[] = PROFILE_ANSWERS.filter((a) => a !== "mixedBreed");

export function ListingFields({ idPrefix }: { idPrefix: string }) {
  const {
    register,
    watch,
    formState: { errors },
  } = useFormContext<ListingInput>();
  const notes = watch("specialNeedsNotes");
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <fieldset className="space-y-5">
      <legend className="text-base font-semibold text-stone-900">{TEXT.legend}</legend>
      <p className={hintClass}>{TEXT.intro}</p>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id={id("external-id")} label={LISTING_LABELS.externalId} hint={TEXT.externalIdHint} error={errors.externalId}>
          {(field) => <input {...field} type="text" autoComplete="off" spellCheck={false} {...register("externalId", { setValueAs: textOrNull })} />}
        </FormField>
        <FormField id={id("intake-date")} label={LISTING_LABELS.intakeDate} hint={TEXT.intakeHint} error={errors.intakeDate}>
          {(field) => <input {...field} type="date" min={BIRTH_DATE_MIN} max={today()} {...register("intakeDate", { setValueAs: textOrNull })} />}
        </FormField>
        <FormField id={id("secondary-breed")} label={LISTING_LABELS.secondaryBreed} hint={TEXT.secondaryBreedHint} error={errors.secondaryBreed}>
          {(field) => <input {...field} type="text" autoComplete="off" {...register("secondaryBreed", { setValueAs: textOrNull })} />}
        </FormField>
        <div className="self-end">
          <AnswerSelect
            id={id("mixed-breed")}
            name="mixedBreed"
            label={<span className={labelClass}>{LISTING_LABELS.mixedBreed}</span>}
            errorLabel={LISTING_LABELS.mixedBreed}
          />
        </div>
        <WordListInput id={id("colors")} name="colors" label={LISTING_LABELS.colors} hint={TEXT.colorsHint} max={COLORS_MAX} />
        <FormField id={id("coat-length")} label={LISTING_LABELS.coatLength} error={errors.coatLength}>
          {(field) => (
            <select {...field} {...register("coatLength", { setValueAs: textOrNull })}>
              <option value="">{TEXT.coatUnknown}</option>
              {COAT_LENGTHS.map((c) => (
                <option key={c} value={c}>
                  {COAT_LABELS[c]}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>

      <fieldset>
        <legend className={labelClass}>{TEXT.care}</legend>
        <div className="mt-1 grid grid-cols-2 gap-4 sm:grid-cols-3">
          {CARE.map((answer) => (
            <AnswerSelect key={answer} id={id(answer)} name={answer} label={LISTING_LABELS[answer]} errorLabel={LISTING_LABELS[answer]} />
          ))}
        </div>
      </fieldset>

      <FormField
        id={id("special-needs-notes")}
        label={LISTING_LABELS.specialNeedsNotes}
        hint={TEXT.notesHint((notes ?? "").length)}
        error={errors.specialNeedsNotes}
      >
        {(field) => <textarea {...field} rows={3} {...register("specialNeedsNotes", { setValueAs: textOrNull })} />}
      </FormField>

      <FeeFields idPrefix={idPrefix} />

      <FormField id={id("video-url")} label={LISTING_LABELS.videoUrl} hint={TEXT.videoHint} error={errors.videoUrl}>
        {(field) => <input {...field} type="url" inputMode="url" autoComplete="off" spellCheck={false} {...register("videoUrl", { setValueAs: textOrNull })} />}
      </FormField>

      <WordListInput id={id("tags")} name="tags" label={LISTING_LABELS.tags} hint={TEXT.tagsHint} max={TAGS_MAX} />

      <div className="flex items-start gap-3">
        <input
          id={id("list-on-other-sites")}
          type="checkbox"
          role="switch"
          aria-describedby={id("list-on-other-sites-hint")}
          className="peer relative mt-0.5 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-stone-400 transition-colors before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-emerald-700 checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
          {...register("listOnOtherSites")}
        />
        <div>
          <label htmlFor={id("list-on-other-sites")} className={labelClass}>
            {LISTING_LABELS.listOnOtherSites}
          </label>
          <p id={id("list-on-other-sites-hint")} className={hintClass}>
            {TEXT.listOnOtherSitesHint}
          </p>
        </div>
      </div>
    </fieldset>
  );
}
