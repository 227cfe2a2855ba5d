"use client";

import { SessionStatus } from "@/components/staff/session-status";
import { SignInForm } from "@/components/staff/sign-in-form";
import { SignedInNotice } from "@/components/staff/signed-in-notice";
import { useStaffSession } from "@/components/staff/use-staff-session";
import type { SessionInfo } from "@/lib/staff/schemas";

/** The sign-in form, or who is signed in already. */
export function SignInPanel({ next, initialSession }: { next: string; initialSession: SessionInfo | null }) {
  const { session, isStaff, isPending, error } = useStaffSession(initialSession);
  if (isPending || !session) return <SessionStatus error={error} />;
  if (isStaff) return <SignedInNotice email={session.email} />;
  return <SignInForm next={next} />;
}
