"use client";

import { useState } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { FormField } from "@/components/staff/form-field";
import { inputClass, labelClass, secondaryButtonClass } from "@/components/staff/styles";
import { useOrganizationChoices } from "@/components/staff/use-organizations";
import { describeError } from "@/lib/site/api-client";

/**
 * Choosing an organisation, for platform admins (whose key, whose animal):
 * a <select> of the first hundred by name, with the city to tell namesakes
 * apart. Where there are more, a search by name narrows it.
 */
export function OrganizationChooser({
  id,
  label,
  error,
  select,
}: {
  id: string;
  label: string;
  error?: { message?: string };
  /** react-hook-form's registration of the organisation's id. */
  select: UseFormRegisterReturn;
}) {
  const [search, setSearch] = useState("");
  const choices = useOrganizationChoices(search, true);
  const searchable = choices.data?.more || search !== "";
  return (
    <div className="space-y-3">
      {searchable ? (
        <div>
          <label htmlFor={`${id}-search`} className={labelClass}>
            Find an organisation by name
          </label>
          <input
            id={`${id}-search`}
            type="search"
            autoComplete="off"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className={inputClass(false)}
          />
        </div>
      ) : null}
      <FormField
        id={id}
        label={label}
        error={error}
        footer={
          choices.isError && !choices.data ? (
            <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-700">
              <span>Could not load the organisations. {describeError(choices.error)}</span>
              <button type="button" onClick={() => void choices.refetch()} className={secondaryButtonClass}>
                Try again
              </button>
            </div>
          ) : null
        }
      >
        {(field) => (
          <select {...field} aria-busy={choices.isFetching || undefined} {...select}>
            <option value="">{choices.isPending ? "Loading organisations…" : "Choose an organisation"}</option>
            {choices.data?.organizations.map((org) => (
              <option key={org.id} value={org.id}>
                {org.name}
                {org.address ? ` (${org.address.city})` : ""}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </div>
  );
}
