"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useFieldArray, useForm, type FieldPath } from "react-hook-form";
import { FieldError } from "@/components/staff/field-error";
import { FormProblemAlert, type FormProblem } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { CAPACITY_MAX, FOSTER_SPECIES, FOSTER_STATUSES, type FosterSpecies, type NewPerson, type Person, type PersonPatch } from "@/lib/people/schemas";
import { FOSTER_STATUS_LABELS, SPECIES_LABELS, type FosterStatus } from "@/components/staff/foster-labels";
import { hintClass, inputClass, labelClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useSavePerson } from "@/components/staff/use-people";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";
import type { CountryChoice } from "@/lib/site/countries";

// Add a foster, or change one: contact, address, the foster's status,
// capacity, species and blackouts, and private notes. The controls are named
// as the API names the fields (address.city, foster.capacity…), so each
// refusal in the API's `details` lands under its own control.

interface Values {
  name: string;
  email: string;
  phone: string;
  address: { street: string; city: string; region: string; postcode: string; country: string };
  notes: string;
  foster: { status: FosterStatus; capacity: string; species: FosterSpecies[]; blackouts: { from: string; to: string }[] };
}

const text = (v: string | null | undefined) => v ?? "";
/** Blank means none: the API's null (it refuses blank text). */
const orNull = (v: string) => (v.trim() === "" ? null : v.trim());

function valuesOf(person: Person | null): Values {
  return {
    name: text(person?.name),
    email: text(person?.email),
    phone: text(person?.phone),
    address: {
      street: text(person?.address?.street),
      city: text(person?.address?.city),
      region: text(person?.address?.region),
      postcode: text(person?.address?.postcode),
      country: person?.address?.country ?? "US",
    },
    notes: text(person?.notes),
    foster: {
      status: person?.foster?.status ?? "active",
      capacity: String(person?.foster?.capacity ?? 1),
      species: person?.foster?.species ?? [],
      blackouts: person?.foster?.blackouts ?? [],
    },
  };
}

/** The values as the API takes them: the address only when something of it is given (the API then asks for its city). */
function bodyOf(values: Values): NewPerson {
  const { street, city, region, postcode, country } = values.address;
  const anyAddress = [street, city, region, postcode].some((v) => v.trim() !== "");
  return {
    name: values.name.trim(),
    email: orNull(values.email),
    phone: orNull(values.phone),
    address: anyAddress ? { street: orNull(street), city: city.trim(), region: orNull(region), postcode: orNull(postcode), country } : null,
    notes: orNull(values.notes),
    foster: {
      status: values.foster.status,
      capacity: Number(values.foster.capacity),
      species: values.foster.species,
      blackouts: values.foster.blackouts,
    },
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A merge patch: only what changed since the form was filled, so a change someone made meanwhile to another field is kept. */
function patchOf(next: NewPerson, before: NewPerson): PersonPatch {
  const patch: PersonPatch = {};
  for (const field of ["name", "email", "phone", "address", "notes"] as const)
    if (!same(next[field], before[field])) Object.assign(patch, { [field]: next[field] });
  const foster: NonNullable<PersonPatch["foster"]> = {};
  for (const field of ["status", "capacity", "species", "blackouts"] as const)
    if (!same(next.foster?.[field], before.foster?.[field])) Object.assign(foster, { [field]: next.foster?.[field] });
  if (Object.keys(foster).length > 0) patch.foster = foster;
  return patch;
}

/** The API's field names the form has a control for; a refusal of any other is said at the top. */
function controlOf(field: string): FieldPath<Values> | undefined {
  if (/^(name|email|phone|notes)$/.test(field)) return field as FieldPath<Values>;
  if (/^address\.(street|city|region|postcode|country)$/.test(field)) return field as FieldPath<Values>;
  if (/^foster\.(status|capacity|species)$/.test(field)) return field as FieldPath<Values>;
  if (/^foster\.blackouts\.\d+\.(from|to)$/.test(field)) return field as FieldPath<Values>;
  return undefined;
}

export function FosterForm({
  organizationId,
  person,
  countries,
  onDone,
  onCancel,
}: {
  organizationId: number;
  /** The foster being changed; null to add one. */
  person: Person | null;
  countries: CountryChoice[];
  onDone: (saved: Person, added: boolean) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const save = useSavePerson(organizationId);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ defaultValues: valuesOf(person) });
  const blackouts = useFieldArray({ control, name: "foster.blackouts" });

  // The roster gives each foster's form a key of its own: opening one mounts it
  // filled with that foster, and brings the reader to it.
  useEffect(() => {
    if (person) {
      headingRef.current?.focus();
      headingRef.current?.scrollIntoView({ block: "start" });
    }
  }, [person]);

  const onSubmit = handleSubmit(async (values) => {
    setProblem(null);
    // A capacity that is no number cannot be sent: said as the API says it.
    if (!/^\d+$/.test(values.foster.capacity.trim())) {
      setError("foster.capacity", { type: "format", message: `must be a whole number from 1 to ${CAPACITY_MAX}` }, { shouldFocus: true });
      return;
    }
    const body = bodyOf(values);
    const patch = person ? patchOf(body, bodyOf(valuesOf(person))) : undefined;
    if (person && patch && Object.keys(patch).length === 0) {
      onDone(person, false);
      return;
    }
    try {
      const saved = await save.mutateAsync(person && patch ? { personId: person.id, patch } : { person: body });
      if (!person) reset(valuesOf(null));
      onDone(saved, !person);
    } catch (error) {
      if (error instanceof ApiClientError && error.details.length > 0) {
        const onControls = error.details.flatMap((d) => {
          const control = controlOf(d.field);
          return control ? [{ control, issue: d.issue }] : [];
        });
        onControls.forEach((d, i) => setError(d.control, { type: "server", message: d.issue }, { shouldFocus: i === 0 }));
        const elsewhere = error.details.filter((d) => !controlOf(d.field));
        if (elsewhere.length > 0 || onControls.length === 0)
          setProblem({ message: `Not saved. ${error.message} ${elsewhere.map((d) => `${d.field}: ${d.issue}`).join("; ")}`.trim() });
        return;
      }
      if (error instanceof ApiClientError && (error.status === 401 || error.status === 403)) {
        setProblem({ message: `Not saved: ${error.message}`, signIn: true });
        return;
      }
      setProblem({ message: `Not saved. ${describeError(error)}` });
    }
  });

  const title = person ? `Edit ${person.name ?? "foster"}` : "Add a foster";
  const fieldId = (name: string) => `${id}-${name}`;
  const e = errors;
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={fieldId("heading")} className={`${panelClass} space-y-6`}>
      <h2 id={fieldId("heading")} ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {title}
      </h2>
      <FormProblemAlert problem={problem} signInHref="/staff/sign-in?next=/staff/fosters" />

      <div className="grid gap-5 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <FormField id={fieldId("name")} label="Name" error={e.name}>
            {(field) => <input {...field} type="text" autoComplete="off" {...register("name")} />}
          </FormField>
        </div>
        <FormField id={fieldId("email")} label="Email" error={e.email}>
          {(field) => <input {...field} type="email" autoComplete="off" inputMode="email" {...register("email")} />}
        </FormField>
        <FormField id={fieldId("phone")} label="Phone" error={e.phone}>
          {(field) => <input {...field} type="tel" autoComplete="off" {...register("phone")} />}
        </FormField>
      </div>

      <fieldset className="space-y-4">
        <legend className="text-base font-semibold text-stone-900">Fostering</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id={fieldId("status")} label="Status" hint="Only active fosters can take an animal." error={e.foster?.status}>
            {(field) => (
              <select {...field} {...register("foster.status")}>
                {FOSTER_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {FOSTER_STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField id={fieldId("capacity")} label="Capacity" hint="How many animals at once (1 to 50)." error={e.foster?.capacity}>
            {(field) => <input {...field} type="number" inputMode="numeric" min={1} max={50} step={1} {...register("foster.capacity")} />}
          </FormField>
        </div>
        <fieldset aria-describedby={`${fieldId("species")}-hint ${fieldId("species")}-error`}>
          <legend className={labelClass}>Species</legend>
          <p id={`${fieldId("species")}-hint`} className={hintClass}>
            None ticked: any animal.
          </p>
          <div className="mt-1 flex flex-wrap gap-x-2 gap-y-1">
            {FOSTER_SPECIES.map((s) => (
              <label key={s} className="inline-flex min-h-11 items-center gap-2 pr-4 text-stone-800">
                <input type="checkbox" value={s} className="h-5 w-5 accent-emerald-700" {...register("foster.species")} />
                {SPECIES_LABELS[s]}
              </label>
            ))}
          </div>
          <FieldError id={`${fieldId("species")}-error`} label="Species" message={e.foster?.species?.message} />
        </fieldset>
        <fieldset className="space-y-3">
          <legend className={labelClass}>Blackouts</legend>
          <p className={hintClass}>Days the foster cannot take an animal (holidays…), both days included.</p>
          {blackouts.fields.length > 0 ? (
            <ul className="space-y-3">
              {blackouts.fields.map((b, i) => (
                <li key={b.id} className="grid grid-cols-[1fr_1fr] items-end gap-3 sm:grid-cols-[1fr_1fr_auto]">
                  <FormField id={fieldId(`blackout-${i}-from`)} label={`Blackout ${i + 1} from`} error={e.foster?.blackouts?.[i]?.from}>
                    {(field) => <input {...field} type="date" {...register(`foster.blackouts.${i}.from`)} />}
                  </FormField>
                  <FormField id={fieldId(`blackout-${i}-to`)} label={`Blackout ${i + 1} to`} error={e.foster?.blackouts?.[i]?.to}>
                    {(field) => <input {...field} type="date" {...register(`foster.blackouts.${i}.to`)} />}
                  </FormField>
                  <button
                    type="button"
                    onClick={() => blackouts.remove(i)}
                    className={`${secondaryButtonClass} col-span-2 min-h-11 sm:col-span-1 sm:mb-1`}
                    aria-label={`Remove blackout ${i + 1}`}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <button type="button" onClick={() => blackouts.append({ from: "", to: "" })} className={`${secondaryButtonClass} min-h-11`}>
            Add a blackout
          </button>
        </fieldset>
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="text-base font-semibold text-stone-900">Home address</legend>
        <p className={hintClass}>Private to staff. Adopters only ever see the city and state of a foster home. In the US, the ZIP code places it on the map.</p>
        <FormField id={fieldId("street")} label="Street" error={e.address?.street}>
          {(field) => <input {...field} type="text" autoComplete="off" {...register("address.street")} />}
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id={fieldId("city")} label="City" error={e.address?.city}>
            {(field) => <input {...field} type="text" autoComplete="off" {...register("address.city")} />}
          </FormField>
          <FormField id={fieldId("region")} label="State or region" error={e.address?.region}>
            {(field) => <input {...field} type="text" autoComplete="off" {...register("address.region")} />}
          </FormField>
          <FormField id={fieldId("postcode")} label="ZIP or postal code" error={e.address?.postcode}>
            {(field) => <input {...field} type="text" autoComplete="off" {...register("address.postcode")} />}
          </FormField>
          <FormField id={fieldId("country")} label="Country" error={e.address?.country}>
            {(field) => (
              <select {...field} {...register("address.country")}>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </div>
      </fieldset>

      <div>
        <label htmlFor={fieldId("notes")} className={labelClass}>
          Notes
        </label>
        <p id={`${fieldId("notes")}-hint`} className={hintClass}>
          For staff only: experience, other pets at home, what suits them.
        </p>
        <textarea
          id={fieldId("notes")}
          rows={3}
          aria-invalid={e.notes ? true : undefined}
          aria-describedby={`${fieldId("notes")}-hint ${fieldId("notes")}-error`}
          className={inputClass(!!e.notes)}
          {...register("notes")}
        />
        <FieldError id={`${fieldId("notes")}-error`} label="Notes" message={e.notes?.message} />
      </div>

      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={isSubmitting} className={`${primaryButtonClass} min-h-11`}>
          {isSubmitting ? "Saving…" : person ? "Save changes" : "Add foster"}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel} className={`${secondaryButtonClass} min-h-11 px-4`}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
