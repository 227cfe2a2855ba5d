"use client";

// Before any schema is built (see the file).
import "@/lib/zod-jitless";
import { useId, useState, type FormEvent } from "react";
import { DateTime } from "@/components/staff/date-time";
import { FormAlert } from "@/components/staff/form-alert";
import { hintClass, inputClass, labelClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import { useNewIntake, usePetStays, useRecordOutcome } from "@/components/staff/use-pet-stays";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";
import { DETAIL_LABELS, INTAKE_LABELS, OUTCOME_LABELS } from "@/lib/stays/labels";
import {
  INTAKE_DETAILS,
  INTAKE_TYPES,
  OUTCOME_TYPES,
  SUBTYPE_MAX,
  TRANSFER_DISTANCES,
  intakeDetailFits,
  outcomeDetailFits,
  type IntakeDetail,
  type IntakeType,
  type OutcomeType,
  type Stay,
} from "@/lib/stays/schemas";

/** Today in the browser's calendar, as a date input holds it. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

/**
 * What `at` to send for the date picked: nothing for today (the server's
 * now, so an outcome today is never before an intake earlier today), else
 * the day (midnight of it in the shelter's time zone).
 */
const atOf = (day: string) => (day === "" || day === today() ? undefined : day);

function problemOf(error: unknown): string {
  if (error instanceof ApiClientError && error.details?.length) return `${error.message} ${error.details.map((d) => `${d.field}: ${d.issue}`).join("; ")}`;
  return describeError(error);
}

/**
 * The animal's stays at the shelter (staff only, below its profile): each
 * intake and outcome, and the one step that comes next: recording the open
 * stay's outcome, or a new intake when the animal has left.
 */
export function PetStays({ petId, petName }: { petId: number; petName: string }) {
  const stays = usePetStays(petId);
  const all = stays.data?.pages.flatMap((page) => page.stays) ?? [];
  // The open stay is the latest, on the last page: the next step is offered once that page is shown.
  const open = all.find((s) => s.outcome === null);
  return (
    <section aria-labelledby="pet-stays-heading" className={`${panelClass} space-y-4`}>
      <h2 id="pet-stays-heading" className="text-lg font-semibold">
        Stays
      </h2>
      {stays.isPending ? (
        <p role="status" className="text-stone-700">
          Loading the stays…
        </p>
      ) : stays.isError ? (
        <FormAlert>
          Could not load the stays. {describeError(stays.error)}{" "}
          <button type="button" onClick={() => void stays.refetch()} className={secondaryButtonClass}>
            Try again
          </button>
        </FormAlert>
      ) : (
        <>
          {all.length === 0 ? (
            <p className="text-stone-700">No stay is recorded for {petName}.</p>
          ) : (
            <ol aria-label={`Stays of ${petName}, oldest first`} className="divide-y divide-stone-200">
              {all.map((stay) => (
                <StayItem key={stay.id} stay={stay} />
              ))}
            </ol>
          )}
          {stays.hasNextPage ? (
            <p>
              <button type="button" onClick={() => void stays.fetchNextPage()} disabled={stays.isFetchingNextPage} className={secondaryButtonClass}>
                {stays.isFetchingNextPage ? "Loading later stays…" : "Show later stays"}
              </button>{" "}
              <span className={hintClass}>The next step (an outcome or a new intake) is recorded below the latest stay.</span>
            </p>
          ) : open ? (
            <OutcomeForm petId={petId} stay={open} />
          ) : (
            <IntakeForm petId={petId} />
          )}
        </>
      )}
    </section>
  );
}

function StayItem({ stay }: { stay: Stay }) {
  return (
    <li className="py-2 first:pt-0 last:pb-0" data-stay={stay.id}>
      <p>
        <span className="font-semibold">In:</span> <DateTime iso={stay.intake.at} /> · {INTAKE_LABELS[stay.intake.type]}
        {stay.intake.detail ? <> · {DETAIL_LABELS[stay.intake.detail]}</> : null}
        {stay.intake.subtype ? <span className="text-stone-700"> ({stay.intake.subtype})</span> : null}
      </p>
      <p>
        <span className="font-semibold">Out:</span>{" "}
        {stay.outcome ? (
          <>
            <DateTime iso={stay.outcome.at} /> · {OUTCOME_LABELS[stay.outcome.type]}
            {stay.outcome.detail ? <> · {DETAIL_LABELS[stay.outcome.detail]}</> : null}
            {stay.outcome.subtype ? <span className="text-stone-700"> ({stay.outcome.subtype})</span> : null}
          </>
        ) : (
          <span className="text-emerald-900">still in care</span>
        )}
      </p>
    </li>
  );
}

/**
 * Type, date and the shelter's own word: the three questions of an intake or
 * an outcome; and, for the types the matrix's 2021 revision details (a
 * transfer's distance, a seizure among other intakes), that detail.
 */
function StepFields<T extends string>({
  types,
  labels,
  type,
  setType,
  day,
  setDay,
  subtype,
  setSubtype,
  details,
  detail,
  setDetail,
}: {
  types: readonly T[];
  labels: Record<T, string>;
  type: T;
  setType: (t: T) => void;
  day: string;
  setDay: (d: string) => void;
  subtype: string;
  setSubtype: (s: string) => void;
  details: readonly IntakeDetail[];
  detail: IntakeDetail | "";
  setDetail: (d: IntakeDetail | "") => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <div>
        <label htmlFor={`${id}-type`} className={labelClass}>
          Type
        </label>
        <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as T)} className={inputClass(false)}>
          {types.map((t) => (
            <option key={t} value={t}>
              {labels[t]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-date`} className={labelClass}>
          Date
        </label>
        <input id={`${id}-date`} type="date" value={day} max={today()} onChange={(e) => setDay(e.target.value)} className={inputClass(false)} />
      </div>
      <div>
        <label htmlFor={`${id}-subtype`} className={labelClass}>
          Details
        </label>
        <input
          id={`${id}-subtype`}
          type="text"
          value={subtype}
          maxLength={SUBTYPE_MAX}
          onChange={(e) => setSubtype(e.target.value)}
          className={inputClass(false)}
        />
      </div>
      {details.length > 0 ? (
        <div>
          <label htmlFor={`${id}-detail`} className={labelClass}>
            {details.includes("seizedOrImpounded") ? "Seized or impounded?" : "Distance"}
          </label>
          <select id={`${id}-detail`} value={detail} onChange={(e) => setDetail(e.target.value as IntakeDetail | "")} className={inputClass(false)}>
            <option value="">{details.includes("seizedOrImpounded") ? "No" : "Not recorded"}</option>
            {details.map((d) => (
              <option key={d} value={d}>
                {DETAIL_LABELS[d]}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </div>
  );
}

/** What a step form sends: its type, its date as the API takes it, the shelter's word and the 2021 detail if any. */
type Step<T extends string> = { type: T; at: ReturnType<typeof atOf>; subtype?: string; detail?: IntakeDetail };

/**
 * A form of the three questions (StepFields) that sends them: an outcome of
 * the open stay, or a new intake. Its problem is shown under the fields; the
 * shelter's word is cleared once recorded.
 */
function StepForm<T extends string>({
  name,
  hint,
  types,
  labels,
  initial,
  detailsOf,
  button,
  pending,
  send,
}: {
  name: string;
  hint: string;
  types: readonly T[];
  labels: Record<T, string>;
  initial: T;
  /** The 2021 details that go with a type (none for most). */
  detailsOf: (type: T) => readonly IntakeDetail[];
  button: string;
  pending: boolean;
  send: (step: Step<T>, done: { onError: (error: unknown) => void; onSuccess: () => void }) => void;
}) {
  const [type, setType] = useState<T>(initial);
  const [day, setDay] = useState(today);
  const [subtype, setSubtype] = useState("");
  const [detail, setDetail] = useState<IntakeDetail | "">("");
  const [problem, setProblem] = useState<string | null>(null);
  const details = detailsOf(type);
  // A detail belongs to its type: another type starts without one.
  const changeType = (next: T) => {
    setType(next);
    setDetail("");
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    send(
      { type, at: atOf(day), subtype: subtype.trim() || undefined, ...(detail && details.includes(detail) ? { detail } : {}) },
      {
        onError: (error) => setProblem(problemOf(error)),
        onSuccess: () => {
          setSubtype("");
          setDetail("");
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label={name} className="space-y-3 border-t border-stone-200 pt-4">
      <h3 className="font-semibold">{name}</h3>
      <p className={hintClass}>{hint}</p>
      <StepFields
        types={types}
        labels={labels}
        type={type}
        setType={changeType}
        day={day}
        setDay={setDay}
        subtype={subtype}
        setSubtype={setSubtype}
        details={details}
        detail={detail}
        setDetail={setDetail}
      />
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      <button type="submit" disabled={pending} className={primaryButtonClass}>
        {pending ? "Recording…" : button}
      </button>
    </form>
  );
}

function OutcomeForm({ petId, stay }: { petId: number; stay: Stay }) {
  const record = useRecordOutcome(petId);
  return (
    <StepForm<OutcomeType>
      name="Record outcome"
      hint="How the stay ended. An adoption makes the animal sold; any other outcome takes it off every public list (staff still see it here)."
      types={OUTCOME_TYPES}
      labels={OUTCOME_LABELS}
      initial="adoption"
      detailsOf={(type) => TRANSFER_DISTANCES.filter((d) => outcomeDetailFits(type, d))}
      button="Record outcome"
      pending={record.isPending}
      send={({ detail, ...outcome }, done) =>
        record.mutate({ stayId: stay.id, outcome: { ...outcome, ...(detail && detail !== "seizedOrImpounded" ? { detail } : {}) } }, done)
      }
    />
  );
}

function IntakeForm({ petId }: { petId: number }) {
  const intake = useNewIntake(petId);
  return (
    <StepForm<IntakeType>
      name="New intake"
      hint="The animal came back (a return after an adoption is “Relinquished by owner”): it is in care and available again."
      types={INTAKE_TYPES}
      labels={INTAKE_LABELS}
      initial="relinquishedByOwner"
      detailsOf={(type) => INTAKE_DETAILS.filter((d) => intakeDetailFits(type, d))}
      button="Record intake"
      pending={intake.isPending}
      send={(step, done) => intake.mutate(step, done)}
    />
  );
}
