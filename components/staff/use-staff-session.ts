"use client";

import { useSession } from "@/components/use-session";
import type { SessionInfo } from "@/lib/staff/schemas";

/**
 * The browser's session as the staff pages need it. The server component
 * already asked /v1/session while rendering; its answer stands in until the
 * shared ["session"] query (the header's) has one of its own, so the first
 * paint is already the right one (form or sign-in prompt) and hydration
 * renders the same thing.
 */
export function useStaffSession(initial: SessionInfo | null) {
  const query = useSession();
  const session = query.data ?? initial ?? undefined;
  return {
    session,
    isStaff: session?.kind === "staff",
    /** Nothing known yet (the server could not tell and the query is still running). */
    isPending: session === undefined && query.isPending,
    error: session === undefined ? query.error : null,
  };
}
