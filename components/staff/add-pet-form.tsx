"use client";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import dynamic from "next/dynamic";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { FormProblemAlert, type FormProblem } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { PetAdded } from "@/components/staff/pet-added";
import { forgetPhotos, type QueuedPhoto } from "@/components/staff/photo-drop-zone";
import { QueuedPhotos } from "@/components/staff/queued-photos";
import { LISTING_FIELD_LABELS, ListingFields } from "@/components/staff/listing-fields";
import { StatusOptions, categoryIdValue, formFieldOf } from "@/components/staff/pet-fields";
import { PROFILE_LABELS, ProfileFields } from "@/components/staff/profile-fields";
import { panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useCategories } from "@/components/staff/use-categories";
import { showServerError } from "@/components/staff/server-error";
import { useHydrated } from "@/components/use-hydrated";
import { ApiClientError } from "@/lib/site/api-error";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";
import type { ErrorDetail } from "@/lib/core/errors";
import { NAME_MAX } from "@/lib/pets/schemas/fields";
import { listingDefaults, newPetSchema, type Category, type NewPet, type NewPetInput, type Pet } from "@/lib/pets/schemas/pet";

// Only platform admins choose an organisation: the chooser (and its list of
// organisations) is a chunk of its own, which a shelter's staff never load.
const OrganizationChooser = dynamic(() => import("@/components/staff/organization-chooser").then((m) => m.OrganizationChooser), {
  ssr: false,
  loading: () => (
    <p role="status" className="text-sm text-stone-700">
      Loading the organisations…
    </p>
  ),
});

const FIELDS = {
  name: "Name",
  categoryId: "Category",
  status: "Status",
  organizationId: "Shelter",
  ...PROFILE_LABELS,
  ...LISTING_FIELD_LABELS,
} as const;
type Field = keyof typeof FIELDS;
const isField = (field: string): field is Field => field in FIELDS;
const FIELD_CODES = ["invalid_body", "unknown_category", "external_id_taken"];
const fieldErrorsOf = (details: ErrorDetail[]) =>
  details.map((d) => ({ field: formFieldOf(d.field), message: d.issue })).filter((d): d is { field: Field; message: string } => isField(d.field));

const SIGN_IN_HREF = "/staff/sign-in?next=/staff/pets/new";

/**
 * The add form. The same `newPetSchema` the API parses the body with
 * validates it here, so the form refuses exactly what the server would;
 * whatever the server still refuses (a category deleted meanwhile, a rate
 * limit, an expired session) is shown on the field or the form it concerns.
 */
export function AddPetForm({ initialCategories, platformAdmin = false }: { initialCategories: Category[] | null; platformAdmin?: boolean }) {
  const categories = useCategories(initialCategories, true);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [added, setAdded] = useState<Pet | null>(null);
  const [photos, setPhotos] = useState<QueuedPhoto[]>([]);
  // "Add another" puts the cursor in the name field once the form is back.
  const focusNameOnReturn = useRef(false);

  const form = useForm<NewPetInput, unknown, NewPet>({
    resolver: zodResolver(newPetSchema),
    defaultValues: {
      name: "",
      status: "available",
      sex: "unknown",
      size: null,
      birthDate: null,
      breed: null,
      description: null,
      goodWith: { children: null, dogs: null, cats: null },
      ...listingDefaults(),
    },
  });
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = form;
  // Until React runs, a click would submit the form natively (a GET with every field in the address).
  const hydrated = useHydrated();

  const create = useMutation({
    mutationFn: async (pet: NewPet): Promise<Pet> => (await callApi((api) => api.POST("/pets", { body: pet }))).data,
  });

  useEffect(() => {
    if (!added && focusNameOnReturn.current) {
      focusNameOnReturn.current = false;
      setFocus("name");
    }
  }, [added, setFocus]);

  function showError(error: unknown) {
    if (error instanceof ApiClientError && error.code === "unknown_category") {
      // The list on screen is out of date.
      void categories.refetch();
      if (fieldErrorsOf(error.details).length === 0) {
        setError("categoryId", { type: "server", message: "does not name an existing category" }, { shouldFocus: true });
        return;
      }
    }
    showServerError(error, {
      failed: "The animal was not added",
      setProblem,
      fields: { codes: FIELD_CODES, of: fieldErrorsOf, setError },
      session: { expired: "Your session has expired, so the animal was not added. Sign in again, then add it." },
    });
  }

  // The schema leaves the shelter optional (an organisation's staff add to
  // their own); a platform admin belongs to none, and hears it with the other errors.
  const shelterMissing = (organizationId: unknown) => platformAdmin && organizationId === undefined;
  const askForShelter = (focus: boolean) =>
    setError("organizationId", { type: "required", message: "Choose the shelter the animal is at" }, { shouldFocus: focus });

  const onSubmit = handleSubmit(
    async (pet) => {
      setProblem(null);
      if (shelterMissing(pet.organizationId)) {
        askForShelter(true);
        return;
      }
      try {
        setAdded(await create.mutateAsync(pet));
      } catch (error) {
        showError(error);
      }
    },
    () => {
      if (shelterMissing(form.getValues("organizationId"))) askForShelter(false);
    },
  );

  function addAnother() {
    reset();
    create.reset();
    forgetPhotos(photos);
    setPhotos([]);
    focusNameOnReturn.current = true;
    setAdded(null);
  }

  if (added) {
    const category = categories.data?.find((c) => c.id === added.categoryId);
    return <PetAdded pet={added} categoryName={category?.name ?? `Category ${added.categoryId}`} photos={photos} onAddAnother={addAnother} />;
  }

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate aria-labelledby="add-pet-heading" className={`${panelClass} max-w-xl space-y-5`}>
        <h2 id="add-pet-heading" className="text-lg font-semibold">
          New animal
        </h2>
        <FormProblemAlert problem={problem} signInHref={SIGN_IN_HREF} />

        {platformAdmin ? (
          <OrganizationChooser
            id="pet-organization"
            label={FIELDS.organizationId}
            error={errors.organizationId}
            select={register("organizationId", { setValueAs: (v: string) => (v === "" ? undefined : Number(v)) })}
          />
        ) : null}

        <FormField id="pet-name" label={FIELDS.name} hint={<>Up to {NAME_MAX} characters.</>} error={errors.name}>
          {(field) => <input {...field} type="text" autoComplete="off" {...register("name")} />}
        </FormField>

        <FormField
          id="pet-category"
          label={FIELDS.categoryId}
          error={errors.categoryId}
          footer={
            categories.isError && !categories.data ? (
              <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-700">
                <span>Could not load the categories. {describeError(categories.error)}</span>
                <button type="button" onClick={() => void categories.refetch()} className={secondaryButtonClass}>
                  Try again
                </button>
              </div>
            ) : null
          }
        >
          {(field) => (
            <select {...field} aria-busy={categories.isPending || undefined} {...register("categoryId", { setValueAs: categoryIdValue })}>
              <option value="">{categories.isPending ? "Loading categories…" : "Choose a category"}</option>
              {categories.data?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </FormField>

        <FormField id="pet-status" label={FIELDS.status} error={errors.status}>
          {(field) => (
            <select {...field} {...register("status")}>
              <StatusOptions />
            </select>
          )}
        </FormField>

        <ProfileFields idPrefix="pet" />

        <ListingFields idPrefix="pet" />

        <QueuedPhotos queued={photos} onChange={setPhotos} />

        <button type="submit" disabled={isSubmitting || !hydrated} className={primaryButtonClass}>
          {isSubmitting ? "Adding…" : "Add animal"}
        </button>
      </form>
    </FormProvider>
  );
}
