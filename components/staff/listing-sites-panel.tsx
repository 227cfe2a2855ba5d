"use client";

import { ListingSitesManager } from "@/components/staff/listing-sites-manager";
import { SessionStatus } from "@/components/staff/session-status";
import { StaffOnly } from "@/components/staff/staff-only";
import { useStaffSession } from "@/components/staff/use-staff-session";
import type { SessionInfo } from "@/lib/staff/schemas";

/** Listing sites for staff; a sign-in prompt for everyone else. */
export function ListingSitesPanel({ initialSession }: { initialSession: SessionInfo | null }) {
  const { isStaff, isPending, error, session } = useStaffSession(initialSession);
  if (isPending || !session) return <SessionStatus error={error} />;
  if (!isStaff) return <StaffOnly next="/staff/listing-sites" doing="manage listing sites" />;
  return <ListingSitesManager platformAdmin={session.platformAdmin} />;
}
