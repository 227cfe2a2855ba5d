"use client";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { FormProblemAlert, type FormProblem } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { LocationFields, type LocationMode } from "@/components/staff/location-fields";
import { organizationFieldErrors } from "@/components/staff/organization-errors";
import { showServerError } from "@/components/staff/server-error";
import { OrganizationFields } from "@/components/staff/organization-fields";
import { linkClass, panelClass, primaryButtonClass } from "@/components/staff/styles";
import { callApi } from "@/lib/site/api-client-core";
import type { CountryChoice } from "@/lib/site/countries";
import { newOrganizationSchema, type NewOrganization, type NewOrganizationInput, type Organization } from "@/lib/organizations/schemas";

const EMPTY: NewOrganizationInput = {
  name: "",
  email: null,
  phone: null,
  website: null,
  address: { street: null, city: "", region: null, postcode: null, country: "US" },
};

/** Blank: let the API make the slug from the name. */
const slugOrUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/**
 * A platform admin adds a shelter or rescue, validated with the API's own
 * newOrganizationSchema. In the US a ZIP code places it; elsewhere (or to
 * be exact) the position is given. The organisation is listed at once, and
 * the next steps (its staff, its keys) are said where they are done.
 */
export function NewOrganizationForm({ countries }: { countries: CountryChoice[] }) {
  const router = useRouter();
  const [mode, setMode] = useState<LocationMode>("zip");
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [added, setAdded] = useState<Organization | null>(null);
  const addedRef = useRef<HTMLDivElement>(null);
  // Where to go next is said at the top: move there, as the keys page does for a new key.
  useEffect(() => {
    if (added) addedRef.current?.focus();
  }, [added]);
  const form = useForm<NewOrganizationInput, unknown, NewOrganization>({ resolver: zodResolver(newOrganizationSchema), defaultValues: EMPTY });
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = form;

  const create = useMutation({
    mutationFn: async (input: NewOrganization): Promise<Organization> => (await callApi((api) => api.POST("/organizations", { body: input }))).data,
  });

  const showError = (error: unknown) =>
    showServerError(error, {
      failed: "The organisation was not added",
      setProblem,
      fields: {
        codes: ["invalid_body", "unknown_location"],
        of: (details) => [
          ...organizationFieldErrors(details),
          ...details.filter((d) => d.field === "slug").map((d) => ({ field: "slug" as const, message: d.issue })),
        ],
        setError,
      },
    });

  const onSubmit = handleSubmit(async ({ location, ...input }) => {
    setProblem(null);
    setAdded(null);
    try {
      const organization = await create.mutateAsync({ ...input, ...(mode === "exact" && location ? { location } : {}) });
      setAdded(organization);
      reset(EMPTY);
      setMode("zip");
      // The list beside this form is drawn on the server.
      router.refresh();
    } catch (error) {
      showError(error);
    }
  });

  return (
    <div className="space-y-4">
      {added ? (
        <div
          ref={addedRef}
          tabIndex={-1}
          role="status"
          className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-emerald-950 focus-visible:outline-2 focus-visible:outline-emerald-700"
        >
          <p className="font-semibold">Added {added.name}.</p>
          <p className="text-sm">
            Its page is{" "}
            <a href={`/shelters/${added.slug}`} className={linkClass}>
              /shelters/{added.slug}
            </a>
            . Give its staff an account with <code className="font-mono">npm run cli -- staff create --email E --org {added.slug}</code>, then they sign in,
            complete{" "}
            <a href={`/staff/organization?id=${added.id}`} className={linkClass}>
              its profile
            </a>{" "}
            and issue its API keys.
          </p>
        </div>
      ) : null}
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate aria-labelledby="new-org-heading" className={`${panelClass} space-y-6`}>
          <h2 id="new-org-heading" className="text-lg font-semibold">
            Add an organisation
          </h2>
          <FormProblemAlert problem={problem} signInHref="/staff/sign-in?next=/staff/organizations" />
          <OrganizationFields idPrefix="new-org" countries={countries} />
          <FormField
            id="new-org-slug"
            label="Page address"
            hint={<>Optional: the end of its page&rsquo;s address, /shelters/&hellip; Made from the name when left blank.</>}
            error={errors.slug}
          >
            {(field) => (
              <input {...field} type="text" autoComplete="off" placeholder="lakeshore-animal-rescue" {...register("slug", { setValueAs: slugOrUndefined })} />
            )}
          </FormField>
          <LocationFields idPrefix="new-org" mode={mode} onModeChange={setMode} />
          <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
            {isSubmitting ? "Adding…" : "Add organisation"}
          </button>
        </form>
      </FormProvider>
    </div>
  );
}
