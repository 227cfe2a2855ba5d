"use client";

import { ApplicationsInbox } from "@/components/staff/applications-inbox";
import { SessionStatus } from "@/components/staff/session-status";
import { StaffOnly } from "@/components/staff/staff-only";
import { useStaffSession } from "@/components/staff/use-staff-session";
import type { SessionInfo } from "@/lib/staff/schemas";

/** The applications inbox for staff; a sign-in prompt for everyone else. */
export function ApplicationsPanel({ initialSession }: { initialSession: SessionInfo | null }) {
  const { isStaff, isPending, error, session } = useStaffSession(initialSession);
  if (isPending || !session) return <SessionStatus error={error} />;
  if (!isStaff) return <StaffOnly next="/staff/applications" doing="handle adoption applications" />;
  return <ApplicationsInbox />;
}
