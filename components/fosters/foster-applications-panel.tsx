"use client";

import { FosterApplicationsInbox } from "@/components/fosters/foster-applications-inbox";
import { SessionStatus } from "@/components/staff/session-status";
import { StaffOnly } from "@/components/staff/staff-only";
import { useStaffSession } from "@/components/staff/use-staff-session";
import { panelClass } from "@/components/staff/styles";
import type { SessionInfo } from "@/lib/staff/schemas";

/** The foster applications inbox for an organisation's staff; a sign-in prompt for everyone else. */
export function FosterApplicationsPanel({ initialSession }: { initialSession: SessionInfo | null }) {
  const { isStaff, isPending, error, session } = useStaffSession(initialSession);
  if (isPending || !session) return <SessionStatus error={error} />;
  if (!isStaff) return <StaffOnly next="/staff/fosters/applications" doing="handle foster applications" />;
  if (session.organizationId === null) {
    return <p className={panelClass}>Foster applications belong to one organisation: sign in as a member of its staff to handle them.</p>;
  }
  return <FosterApplicationsInbox organizationId={session.organizationId} />;
}
