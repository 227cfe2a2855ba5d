"use client";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { zodResolver } from "@hookform/resolvers/zod";
import dynamic from "next/dynamic";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { FieldError } from "@/components/staff/field-error";
import { FormProblemAlert, type FormProblem } from "@/components/staff/form-alert";
import { FormField } from "@/components/staff/form-field";
import { hintClass, labelClass, panelClass, primaryButtonClass } from "@/components/staff/styles";
import { PLAN_NAMES } from "@/components/staff/plan-names";
import { showServerError } from "@/components/staff/server-error";
import { useIssueKey } from "@/components/staff/use-api-keys";
import { ORGANIZATION_PLANS, PLANS, PLAN_LIMITS, type Plan } from "@/lib/keys/plans";
import { describeKeyScope, KEY_SCOPES, newApiKeySchema, type ApiKeySummary, type NewApiKey } from "@/lib/keys/schemas";

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

type Values = z.input<typeof newApiKeySchema>;
const FIELDS = {
  name: "Name",
  plan: "Plan",
  scopes: "Scopes",
  perMinute: "Requests per minute",
  perDay: "Requests per day",
  organizationId: "Organisation",
} as const;
type Field = keyof typeof FIELDS;
const isField = (field: string): field is Field => field in FIELDS;

const count = (n: number) => n.toLocaleString("en-US");
const planLabel = (plan: Plan) =>
  plan === "enterprise"
    ? `${PLAN_NAMES[plan]} (limits of your choice)`
    : `${PLAN_NAMES[plan]} (${count(PLAN_LIMITS[plan].perMinute)}/min, ${count(PLAN_LIMITS[plan].perDay)}/day)`;
/** The enterprise plan's own limits: the same number input each, by field and id. */
const LIMITS = [
  ["perMinute", "key-per-minute"],
  ["perDay", "key-per-day"],
] as const;
const optionalNumber = (v: unknown) => (v === "" || v === undefined || v === null ? undefined : Number(v));

const organizationIdValue = (v: unknown) => (v === "" || v === undefined || v === null ? undefined : Number(v));

/**
 * Issue a key: checked with the API's own newApiKeySchema before it is sent.
 * An organisation's staff issue their own organisation's keys; a platform
 * admin says whose it is: an organisation's, or a platform key.
 */
export function NewKeyForm({
  onIssued,
  platformAdmin = false,
}: {
  onIssued: (issued: { key: string; summary: ApiKeySummary }) => void;
  platformAdmin?: boolean;
}) {
  const issue = useIssueKey();
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [whose, setWhose] = useState<"organization" | "platform">("organization");
  const {
    register,
    handleSubmit,
    getValues,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, NewApiKey>({
    resolver: zodResolver(newApiKeySchema),
    defaultValues: { name: "", plan: "free", scopes: ["pets:read", "pets:write"] },
  });
  const enterprise = useWatch({ control, name: "plan" }) === "enterprise";

  // The schema leaves the owner optional (an organisation's staff issue their
  // own); a platform admin must say, and hears it with the other errors.
  const ownerMissing = (organizationId: unknown) => platformAdmin && whose === "organization" && organizationId === undefined;
  const askForOwner = (focus: boolean) =>
    setError("organizationId", { type: "required", message: "Choose the organisation whose key it is (or a platform key)" }, { shouldFocus: focus });

  const onSubmit = handleSubmit(
    async ({ organizationId, ...input }) => {
      setProblem(null);
      if (ownerMissing(organizationId)) {
        askForOwner(true);
        return;
      }
      const owner = !platformAdmin ? {} : whose === "platform" ? { platform: true } : { organizationId };
      try {
        onIssued(await issue.mutateAsync({ ...input, ...owner }));
        reset();
        setWhose("organization");
      } catch (error) {
        showServerError(error, {
          failed: "The key was not issued",
          setProblem,
          fields: {
            codes: ["invalid_body"],
            of: (details) => details.filter((d) => isField(d.field)).map((d) => ({ field: d.field as Field, message: d.issue })),
            setError,
          },
          session: { expired: "Your session has expired: the key was not issued.", anyForbidden: true },
        });
      }
    },
    () => {
      if (ownerMissing(getValues("organizationId"))) askForOwner(false);
    },
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="new-key-heading" className={`${panelClass} space-y-5`}>
      <h2 id="new-key-heading" className="text-lg font-semibold">
        Issue a key
      </h2>
      <FormProblemAlert problem={problem} signInHref="/staff/sign-in?next=/staff/keys" />

      {platformAdmin ? (
        <fieldset className="space-y-3">
          <legend className={labelClass}>Whose key</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {(
              [
                ["organization", "An organisation’s key"],
                ["platform", "A platform key (every organisation)"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="inline-flex items-center gap-2 text-stone-800">
                <input
                  type="radio"
                  name="key-whose"
                  value={value}
                  checked={whose === value}
                  onChange={() => setWhose(value)}
                  className="h-4 w-4 accent-emerald-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
                />
                {label}
              </label>
            ))}
          </div>
          {whose === "organization" ? (
            <OrganizationChooser
              id="key-organization"
              label={FIELDS.organizationId}
              error={errors.organizationId}
              select={register("organizationId", { setValueAs: organizationIdValue, shouldUnregister: true })}
            />
          ) : (
            <p className={hintClass}>For listing sites and operators: it reads every organisation&rsquo;s data, and writes only by naming the organisation.</p>
          )}
        </fieldset>
      ) : null}

      <div className="grid gap-5">
        <FormField id="key-name" label={FIELDS.name} hint={<>Who the key is for, e.g. &ldquo;Happy Tails app&rdquo;.</>} error={errors.name}>
          {(field) => <input {...field} type="text" autoComplete="off" {...register("name")} />}
        </FormField>

        <FormField id="key-plan" label={FIELDS.plan} error={errors.plan}>
          {(field) => (
            <select {...field} {...register("plan")}>
              {/* An organisation's staff choose among the standard plans; enterprise and its limits are the platform's decision. */}
              {(platformAdmin ? PLANS : ORGANIZATION_PLANS).map((plan) => (
                <option key={plan} value={plan}>
                  {planLabel(plan)}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>

      {enterprise ? (
        <div className="grid gap-5 sm:grid-cols-2">
          {LIMITS.map(([limit, id]) => (
            <FormField key={limit} id={id} label={FIELDS[limit]} error={errors[limit]}>
              {(field) => (
                <input
                  {...field}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  {...register(limit, { setValueAs: optionalNumber, shouldUnregister: true })}
                />
              )}
            </FormField>
          ))}
        </div>
      ) : null}

      <fieldset aria-describedby="key-scopes-error">
        <legend className={labelClass}>Scopes</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {KEY_SCOPES.map((scope) => (
            <label key={scope} className="inline-flex items-center gap-2 text-stone-800">
              <input
                type="checkbox"
                value={scope}
                aria-invalid={errors.scopes ? true : undefined}
                className="h-4 w-4 accent-emerald-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
                {...register("scopes")}
              />
              {describeKeyScope(scope)}
            </label>
          ))}
        </div>
        <FieldError id="key-scopes-error" label={FIELDS.scopes} message={errors.scopes?.message} />
      </fieldset>

      <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
        {isSubmitting ? "Issuing…" : "Issue key"}
      </button>
    </form>
  );
}
