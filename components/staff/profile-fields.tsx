"use client";

import { useFormContext } from "react-hook-form";
import { FormField } from "@/components/staff/form-field";
import { AnswerSelect } from "@/components/staff/answer-select";
import { textOrNull, today } from "@/components/staff/pet-fields";
import { hintClass, labelClass } from "@/components/staff/styles";
import { GOOD_WITH, PET_SEXES, PET_SIZES } from "@/lib/pets/profile";
import { GOOD_WITH_LABELS, SEX_LABELS, SIZE_LABELS } from "@/lib/pets/profile-labels";
import { BIRTH_DATE_MIN, BREED_MAX, DESCRIPTION_MAX } from "@/lib/pets/schemas/fields";
import { type NewPetInput } from "@/lib/pets/schemas/pet";

// The profile part of the add and edit forms: one component, so both ask
// the same questions in the same words. It reads the form it sits in from
// react-hook-form's context; both forms' values carry these fields, named
// as in the API (so a server error's `field` lands on its control).

export type ProfileInput = Pick<NewPetInput, "sex" | "size" | "birthDate" | "breed" | "description" | "goodWith">;

export const PROFILE_LABELS = {
  sex: "Sex",
  size: "Size when grown",
  birthDate: "Date of birth",
  breed: "Breed",
  description: "Description",
  "goodWith.children": "Good with children",
  "goodWith.dogs": "Good with dogs",
  "goodWith.cats": "Good with cats",
} as const;

export function ProfileFields({ idPrefix }: { idPrefix: string }) {
  const {
    register,
    watch,
    formState: { errors },
  } = useFormContext<ProfileInput>();
  const description = watch("description");
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <fieldset className="space-y-5">
      <legend className="text-base font-semibold text-stone-900">Profile</legend>
      <p className={hintClass}>Everything here is optional: leave what you do not know, and fill it in later.</p>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id={id("sex")} label={PROFILE_LABELS.sex} error={errors.sex}>
          {(field) => (
            <select {...field} {...register("sex")}>
              {PET_SEXES.map((s) => (
                <option key={s} value={s}>
                  {s === "unknown" ? "Not known" : SEX_LABELS[s]}
                </option>
              ))}
            </select>
          )}
        </FormField>

        <FormField id={id("size")} label={PROFILE_LABELS.size} error={errors.size}>
          {(field) => (
            <select {...field} {...register("size", { setValueAs: textOrNull })}>
              <option value="">Not known</option>
              {PET_SIZES.map((s) => (
                <option key={s} value={s}>
                  {SIZE_LABELS[s]}
                </option>
              ))}
            </select>
          )}
        </FormField>

        <FormField id={id("birth-date")} label={PROFILE_LABELS.birthDate} hint="An estimate is fine. The age group follows from it." error={errors.birthDate}>
          {(field) => <input {...field} type="date" min={BIRTH_DATE_MIN} max={today()} {...register("birthDate", { setValueAs: textOrNull })} />}
        </FormField>

        <FormField id={id("breed")} label={PROFILE_LABELS.breed} hint={<>Up to {BREED_MAX} characters, e.g. “Labrador mix”.</>} error={errors.breed}>
          {(field) => <input {...field} type="text" autoComplete="off" {...register("breed", { setValueAs: textOrNull })} />}
        </FormField>
      </div>

      <FormField
        id={id("description")}
        label={PROFILE_LABELS.description}
        hint={
          <>
            Plain text; line breaks are kept. {(description ?? "").length.toLocaleString("en")} of {DESCRIPTION_MAX.toLocaleString("en")} characters.
          </>
        }
        error={errors.description}
      >
        {(field) => <textarea {...field} rows={6} {...register("description", { setValueAs: textOrNull })} />}
      </FormField>

      <fieldset>
        <legend className={labelClass}>Good with</legend>
        <div className="mt-1 grid gap-4 sm:grid-cols-3">
          {GOOD_WITH.map((kind) => (
            <AnswerSelect
              key={kind}
              id={id(`good-with-${kind}`)}
              name={`goodWith.${kind}`}
              label={
                <>
                  <span className="sr-only">Good with </span>
                  {GOOD_WITH_LABELS[kind]}
                </>
              }
              errorLabel={PROFILE_LABELS[`goodWith.${kind}`]}
            />
          ))}
        </div>
      </fieldset>
    </fieldset>
  );
}
