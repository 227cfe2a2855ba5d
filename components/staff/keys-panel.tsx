"use client";

import { KeysManager } from "@/components/staff/keys-manager";
import { SessionStatus } from "@/components/staff/session-status";
import { StaffOnly } from "@/components/staff/staff-only";
import { useStaffSession } from "@/components/staff/use-staff-session";
import type { SessionInfo } from "@/lib/staff/schemas";

/** Key management for staff; a sign-in prompt for everyone else. */
export function KeysPanel({ initialSession }: { initialSession: SessionInfo | null }) {
  const { isStaff, isPending, error, session } = useStaffSession(initialSession);
  if (isPending || !session) return <SessionStatus error={error} />;
  if (!isStaff) return <StaffOnly next="/staff/keys" doing="manage API keys" />;
  return <KeysManager platformAdmin={session.platformAdmin} />;
}
