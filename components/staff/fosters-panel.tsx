"use client";

import { useState } from "react";
import { FosterBoard } from "@/components/staff/foster-board";
import { FosterRoster } from "@/components/staff/foster-roster";
import { SessionStatus } from "@/components/staff/session-status";
import { StaffOnly } from "@/components/staff/staff-only";
import { inputClass, labelClass, panelClass } from "@/components/staff/styles";
import { useOrganizationChoices } from "@/components/staff/use-organizations";
import { useStaffSession } from "@/components/staff/use-staff-session";
import type { CountryChoice } from "@/lib/site/countries";
import type { SessionInfo } from "@/lib/staff/schemas";

type View = { kind: "roster"; countries: CountryChoice[] } | { kind: "board" };

const NEXT = { roster: "/staff/fosters", board: "/staff/fosters/board" } as const;
const DOING = { roster: "see and manage the fosters", board: "see where the animals in care are" } as const;

function Tool({ view, organizationId }: { view: View; organizationId: number }) {
  return view.kind === "roster" ? <FosterRoster organizationId={organizationId} countries={view.countries} /> : <FosterBoard organizationId={organizationId} />;
}

/**
 * A foster page's tool for the organisation whose fosters they are: staff's
 * own; a platform admin first chooses one. Everyone else is offered the sign-in.
 */
export function FostersPanel({ initialSession, view }: { initialSession: SessionInfo | null; view: View }) {
  const { isStaff, isPending, error, session } = useStaffSession(initialSession);
  if (isPending || !session) return <SessionStatus error={error} />;
  if (!isStaff) return <StaffOnly next={NEXT[view.kind]} doing={DOING[view.kind]} />;
  if (session.organizationId !== null && !session.platformAdmin) return <Tool view={view} organizationId={session.organizationId} />;
  return <ChooseOrganization view={view} />;
}

function ChooseOrganization({ view }: { view: View }) {
  const [chosen, setChosen] = useState<number | null>(null);
  const choices = useOrganizationChoices("", true);
  return (
    <div className="space-y-6">
      <div className={`${panelClass} max-w-xl`}>
        <label htmlFor="fosters-organization" className={labelClass}>
          Organisation
        </label>
        <select
          id="fosters-organization"
          value={chosen ?? ""}
          onChange={(e) => setChosen(e.target.value === "" ? null : Number(e.target.value))}
          className={inputClass(false)}
        >
          <option value="">{choices.isPending ? "Loading the organisations…" : "Choose whose fosters to see"}</option>
          {choices.data?.organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      {chosen === null ? null : <Tool view={view} organizationId={chosen} />}
    </div>
  );
}
