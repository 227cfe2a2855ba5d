"use client";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { FieldError } from "@/components/staff/field-error";
import { FormAlert } from "@/components/staff/form-alert";
import { PetAdded } from "@/components/staff/pet-added";
import { STATUS_LABELS } from "@/components/staff/status-labels";
import { hintClass, inputClass, labelClass, linkClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useCategories } from "@/components/staff/use-categories";
import { ApiClientError, apiFetch, describeError } from "@/lib/site/api-client";
import { NAME_MAX, PET_STATUSES, newPetSchema, type Category, type NewPet, type NewPetInput, type Pet } from "@/lib/pets/schemas";

const FIELDS = { name: "Name", categoryId: "Category", status: "Status" } as const;
type Field = keyof typeof FIELDS;
const isField = (field: string): field is Field => field in FIELDS;

const SIGN_IN_HREF = "/staff/sign-in?next=/staff/pets/new";

interface FormProblem {
  message: string;
  /** The session is gone or is not staff's: offer the way back in. */
  signIn?: boolean;
}

/**
 * The add form. The same `newPetSchema` the API parses the body with
 * validates it here, so the form refuses exactly what the server would;
 * whatever the server still refuses (a category deleted meanwhile, a rate
 * limit, an expired session) is shown on the field or the form it concerns.
 */
export function AddPetForm({ initialCategories }: { initialCategories: Category[] | null }) {
  const queryClient = useQueryClient();
  const categories = useCategories(initialCategories, true);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [added, setAdded] = useState<Pet | null>(null);
  // "Add another" puts the cursor in the name field once the form is back.
  const focusNameOnReturn = useRef(false);

  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<NewPetInput, unknown, NewPet>({
    resolver: zodResolver(newPetSchema),
    defaultValues: { name: "", status: "available" },
  });

  const create = useMutation({
    mutationFn: async (pet: NewPet) => (await apiFetch<Pet>("/v1/pets", { method: "POST", json: pet })).data,
    // The browse page's lists (keys starting with "pets") now miss this animal.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["pets"] }),
  });

  useEffect(() => {
    if (!added && focusNameOnReturn.current) {
      focusNameOnReturn.current = false;
      setFocus("name");
    }
  }, [added, setFocus]);

  function showServerError(error: unknown) {
    if (error instanceof ApiClientError) {
      if (error.code === "invalid_body" || error.code === "unknown_category") {
        const onFields = error.details.filter((d) => isField(d.field));
        onFields.forEach((d, i) => setError(d.field as Field, { type: "server", message: d.issue }, { shouldFocus: i === 0 }));
        if (error.code === "unknown_category") {
          if (onFields.length === 0) setError("categoryId", { type: "server", message: "does not name an existing category" }, { shouldFocus: true });
          // The list on screen is out of date.
          void categories.refetch();
        }
        if (onFields.length > 0 || error.code === "unknown_category") return;
      }
      if (error.status === 401) {
        setProblem({ message: "Your session has expired, so the animal was not added. Sign in again, then add it.", signIn: true });
        return;
      }
      if (error.status === 403 && error.code === "forbidden") {
        setProblem({ message: `The animal was not added: ${error.message}`, signIn: true });
        return;
      }
    }
    setProblem({ message: `The animal was not added. ${describeError(error)}` });
  }

  const onSubmit = handleSubmit(async (pet) => {
    setProblem(null);
    try {
      setAdded(await create.mutateAsync(pet));
    } catch (error) {
      showServerError(error);
    }
  });

  function addAnother() {
    reset();
    create.reset();
    focusNameOnReturn.current = true;
    setAdded(null);
  }

  if (added) {
    const category = categories.data?.find((c) => c.id === added.categoryId);
    return <PetAdded pet={added} categoryName={category?.name ?? `Category ${added.categoryId}`} onAddAnother={addAnother} />;
  }

  const nameDescribedBy = "pet-name-hint pet-name-error";
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="add-pet-heading" className={`${panelClass} max-w-xl space-y-5`}>
      <h2 id="add-pet-heading" className="text-lg font-semibold">
        New animal
      </h2>
      {problem ? (
        <FormAlert>
          {problem.message}
          {problem.signIn ? (
            <>
              {" "}
              <Link href={SIGN_IN_HREF} className={linkClass}>
                Sign in as staff
              </Link>
            </>
          ) : null}
        </FormAlert>
      ) : null}

      <div>
        <label htmlFor="pet-name" className={labelClass}>
          Name
        </label>
        <p id="pet-name-hint" className={hintClass}>
          Up to {NAME_MAX} characters.
        </p>
        <input
          id="pet-name"
          type="text"
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={nameDescribedBy}
          className={inputClass(!!errors.name)}
          {...register("name")}
        />
        <FieldError id="pet-name-error" label={FIELDS.name} message={errors.name?.message} />
      </div>

      <div>
        <label htmlFor="pet-category" className={labelClass}>
          Category
        </label>
        <select
          id="pet-category"
          aria-invalid={errors.categoryId ? true : undefined}
          aria-describedby="pet-category-error"
          aria-busy={categories.isPending || undefined}
          className={inputClass(!!errors.categoryId)}
          {...register("categoryId", { setValueAs: (v: string) => (v === "" || v === undefined ? undefined : Number(v)) })}
        >
          <option value="">{categories.isPending ? "Loading categories…" : "Choose a category"}</option>
          {categories.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <FieldError id="pet-category-error" label={FIELDS.categoryId} message={errors.categoryId?.message} />
        {categories.isError && !categories.data ? (
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-700">
            <span>Could not load the categories. {describeError(categories.error)}</span>
            <button type="button" onClick={() => void categories.refetch()} className={secondaryButtonClass}>
              Try again
            </button>
          </div>
        ) : null}
      </div>

      <div>
        <label htmlFor="pet-status" className={labelClass}>
          Status
        </label>
        <select
          id="pet-status"
          aria-invalid={errors.status ? true : undefined}
          aria-describedby="pet-status-error"
          className={inputClass(!!errors.status)}
          {...register("status")}
        >
          {PET_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
        <FieldError id="pet-status-error" label={FIELDS.status} message={errors.status?.message} />
      </div>

      <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
        {isSubmitting ? "Adding…" : "Add animal"}
      </button>
    </form>
  );
}
