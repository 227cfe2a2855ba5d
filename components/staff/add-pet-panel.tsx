"use client";

import { AddPetForm } from "@/components/staff/add-pet-form";
import { SessionStatus } from "@/components/staff/session-status";
import { StaffOnly } from "@/components/staff/staff-only";
import { useStaffSession } from "@/components/staff/use-staff-session";
import type { Category } from "@/lib/pets/schemas/pet";
import type { SessionInfo } from "@/lib/staff/schemas";

/** The add form for staff; a sign-in prompt for everyone else. */
export function AddPetPanel({ initialSession, initialCategories }: { initialSession: SessionInfo | null; initialCategories: Category[] | null }) {
  const { isStaff, isPending, error, session } = useStaffSession(initialSession);
  if (isPending || !session) return <SessionStatus error={error} />;
  if (!isStaff) return <StaffOnly next="/staff/pets/new" doing="add animals" />;
  return <AddPetForm initialCategories={initialCategories} platformAdmin={session.platformAdmin} />;
}
