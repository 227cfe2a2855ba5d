"use client";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { FormAlert, FormProblemAlert, type FormProblem } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { LISTING_FIELD_LABELS, ListingFields } from "@/components/staff/listing-fields";
import { StatusOptions, categoryIdValue, formFieldOf } from "@/components/staff/pet-fields";
import { PROFILE_LABELS, ProfileFields } from "@/components/staff/profile-fields";
import { STATUS_LABELS } from "@/components/pets/browse-query";
import { panelClass, primaryButtonClass } from "@/components/staff/styles";
import { useUpdatePet } from "@/components/staff/use-update-pet";
import { showServerError } from "@/components/staff/server-error";
import { ApiClientError } from "@/lib/site/api-error";
import type { ErrorDetail } from "@/lib/core/errors";
import { LISTING_FIELDS, petPatchSchema, type Category, type ListingField, type Pet, type PetPatch, type PetPatchInput } from "@/lib/pets/schemas/pet";
import { NAME_MAX } from "@/lib/pets/schemas/fields";

const FIELDS = {
  name: "Name",
  categoryId: "Category",
  status: "Status",
  ...PROFILE_LABELS,
  ...LISTING_FIELD_LABELS,
} as const;
/** What the form edits, as PATCH names it (goodWith is one field there, three controls here). */
const FORM_FIELDS = ["name", "categoryId", "status", "sex", "size", "birthDate", "breed", "description", "goodWith", ...LISTING_FIELDS] as const;
type Field = keyof typeof FIELDS;
const isField = (field: string): field is Field => field in FIELDS;
const FIELD_CODES = ["invalid_body", "unknown_category", "external_id_taken"];
const fieldErrorsOf = (details: ErrorDetail[]) =>
  details.map((d) => ({ field: formFieldOf(d.field), message: d.issue })).filter((d): d is { field: Field; message: string } => isField(d.field));

const valuesOf = (pet: Pet): PetPatchInput => ({
  name: pet.name,
  categoryId: pet.categoryId,
  status: pet.status,
  sex: pet.sex,
  size: pet.size,
  birthDate: pet.birthDate,
  breed: pet.breed,
  description: pet.description,
  goodWith: { ...pet.goodWith },
  ...(Object.fromEntries(LISTING_FIELDS.map((field) => [field, pet[field]])) as Pick<Pet, ListingField>),
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Staff change an animal: status (the everyday case: it was adopted), name,
 * category and profile. The PATCH schema validates the form, so it refuses what the
 * server would. Only the fields that differ from what was loaded are sent,
 * with If-Match naming the version they were loaded at: if someone else
 * changed the animal meanwhile, nothing is overwritten, and the form shows
 * what the animal is now.
 */
export function EditPetForm({ pet, categories, signInHref }: { pet: Pet; categories: Category[] | undefined; signInHref: string }) {
  const update = useUpdatePet();
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [conflict, setConflict] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // What the form was filled from: the values and the version If-Match names.
  // A new version (saved here, or found to be someone else's after a 412)
  // refills the form; an optimistic change or a rollback (same version) does not.
  const [base, setBase] = useState(() => ({ version: pet.version, values: valuesOf(pet) }));
  if (pet.version !== base.version) {
    // A new version whose fields are the same (a photo added, reordered or
    // deleted in the panel above) only moves If-Match on: what is being
    // typed stays.
    const values = valuesOf(pet);
    setBase({ version: pet.version, values: same(values, base.values) ? base.values : values });
  }

  const form = useForm<PetPatchInput, unknown, PetPatch>({ resolver: zodResolver(petPatchSchema), values: base.values });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  function showError(error: unknown) {
    if (error instanceof ApiClientError && error.status === 412) {
      setConflict(true);
      return;
    }
    if (error instanceof ApiClientError && error.status === 404) {
      setProblem({ message: "Your change was not saved: this animal no longer exists." });
      return;
    }
    showServerError(error, { failed: "Your change was not saved", setProblem, fields: { codes: FIELD_CODES, of: fieldErrorsOf, setError } });
  }

  const onSubmit = handleSubmit(async (values) => {
    setProblem(null);
    setConflict(false);
    setNotice(null);
    const changes: PetPatch = {};
    for (const field of FORM_FIELDS) {
      if (values[field] !== undefined && !same(values[field], base.values[field])) Object.assign(changes, { [field]: values[field] });
    }
    if (Object.keys(changes).length === 0) {
      setNotice("Nothing to save: the values are the ones already stored.");
      return;
    }
    try {
      const saved = await update.mutateAsync({ id: pet.id, version: base.version, changes });
      setNotice(`Saved. ${saved.name} is now ${STATUS_LABELS[saved.status].toLowerCase()}.`);
    } catch (error) {
      showError(error);
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate aria-labelledby="edit-pet-heading" className={`${panelClass} space-y-5`}>
        <h2 id="edit-pet-heading" className="text-lg font-semibold">
          Change this animal
        </h2>
        {conflict ? (
          <FormAlert>
            Someone else changed this animal while you were editing, so your change was not saved. The page and the form now show its current values: check
            them, then make your change again if it is still needed.
          </FormAlert>
        ) : null}
        <FormProblemAlert problem={problem} signInHref={signInHref} />

        <FormField id="edit-pet-status" label={FIELDS.status} error={errors.status}>
          {(field) => (
            <select {...field} {...register("status")}>
              <StatusOptions />
            </select>
          )}
        </FormField>

        <FormField id="edit-pet-name" label={FIELDS.name} hint={<>Up to {NAME_MAX} characters.</>} error={errors.name}>
          {(field) => <input {...field} type="text" autoComplete="off" {...register("name")} />}
        </FormField>

        <FormField id="edit-pet-category" label={FIELDS.categoryId} error={errors.categoryId}>
          {(field) => (
            <select {...field} {...register("categoryId", { setValueAs: categoryIdValue })}>
              {categories?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
              {!categories?.some((c) => c.id === base.values.categoryId) && <option value={base.values.categoryId}>Category {base.values.categoryId}</option>}
            </select>
          )}
        </FormField>

        <ProfileFields idPrefix="edit-pet" />

        <ListingFields idPrefix="edit-pet" />

        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
            {isSubmitting ? "Saving…" : "Save changes"}
          </button>
          <p role="status" className="text-sm text-stone-700">
            {notice}
          </p>
        </div>
      </form>
    </FormProvider>
  );
}
