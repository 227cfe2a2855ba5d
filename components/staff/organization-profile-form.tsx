"use client";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { FormProblemAlert, type FormProblem } from "@/components/staff/form-alert";
import { LocationFields, type LocationMode } from "@/components/staff/location-fields";
import { organizationFieldErrors } from "@/components/staff/organization-errors";
import { showServerError } from "@/components/staff/server-error";
import { OrganizationFields } from "@/components/staff/organization-fields";
import { TimeZoneField } from "@/components/staff/time-zone-field";
import { profilePatch } from "@/components/staff/profile-patch";
import { panelClass, primaryButtonClass } from "@/components/staff/styles";
import { callApi } from "@/lib/site/api-client-core";
import type { CountryChoice } from "@/lib/site/countries";
import { organizationPatchSchema, type Address, type Organization, type OrganizationPatch, type OrganizationPatchInput } from "@/lib/organizations/schemas";

const NO_ADDRESS: Address = { street: null, city: "", region: null, postcode: null, country: "US" };

const valuesOf = (organization: Organization): OrganizationPatchInput => ({
  name: organization.name,
  email: organization.email,
  phone: organization.phone,
  website: organization.website,
  address: { ...(organization.address ?? NO_ADDRESS) },
  timeZone: organization.timeZone,
  // The exact-position fields start from the current position, whichever mode is shown.
  ...(organization.location ? { location: { ...organization.location } } : {}),
});

/**
 * A shelter's profile, as adopters see it: name, contact, address and where
 * it is on the map. Validated with the API's own organizationPatchSchema;
 * whatever the server still refuses (an unknown ZIP code, an expired
 * session) is shown on the field or the form it concerns.
 */
export function OrganizationProfileForm({
  organization,
  placedAtZip,
  heading,
  countries,
}: {
  organization: Organization;
  /** Whether its position is its ZIP code's centre (or unknown): the mode the form starts in. */
  placedAtZip: boolean;
  heading: string;
  countries: CountryChoice[];
}) {
  const router = useRouter();
  const [base, setBase] = useState<{ organization: Organization; mode: LocationMode }>({ organization, mode: placedAtZip ? "zip" : "exact" });
  const [mode, setMode] = useState<LocationMode>(base.mode);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const form = useForm<OrganizationPatchInput, unknown, OrganizationPatch>({
    resolver: zodResolver(organizationPatchSchema),
    values: useMemo(() => valuesOf(base.organization), [base.organization]),
  });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  const save = useMutation({
    mutationFn: async (patch: OrganizationPatch): Promise<Organization> =>
      (await callApi((api) => api.PATCH("/organizations/{organizationId}", { params: { path: { organizationId: organization.id } }, body: patch }))).data,
  });

  const showError = (error: unknown) =>
    showServerError(error, {
      failed: "Your changes were not saved",
      setProblem,
      fields: {
        codes: ["invalid_body", "unknown_location"],
        of: (details) => organizationFieldErrors(details),
        setError,
      },
    });

  const onSubmit = handleSubmit(async (values) => {
    setProblem(null);
    setNotice(null);
    const patch = profilePatch(values, base, mode);
    if (Object.keys(patch).length === 0) {
      setNotice("Nothing to save: these are the details adopters already see.");
      return;
    }
    try {
      const saved = await save.mutateAsync(patch);
      setBase({ organization: saved, mode });
      setNotice("Saved. Adopters see the new details now.");
      // The header's name and the preview beside the form are drawn on the server.
      router.refresh();
    } catch (error) {
      showError(error);
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate aria-labelledby="profile-heading" className={`${panelClass} space-y-6`}>
        <h2 id="profile-heading" className="text-lg font-semibold">
          {heading}
        </h2>
        <FormProblemAlert problem={problem} signInHref="/staff/sign-in?next=/staff/organization" />
        <OrganizationFields idPrefix="org" countries={countries} />
        <LocationFields idPrefix="org" mode={mode} onModeChange={setMode} />
        <TimeZoneField idPrefix="org" />
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
            {isSubmitting ? "Saving…" : "Save profile"}
          </button>
          <p role="status" className="text-sm font-medium text-emerald-900 empty:hidden">
            {notice}
          </p>
        </div>
      </form>
    </FormProvider>
  );
}
