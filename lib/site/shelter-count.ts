import { GET as listOrganizations } from "@/app/v1/organizations/route";
import { now } from "@/lib/clock";
import { callApi } from "@/lib/site/call-api";

// Whether the service knows more than one shelter. A one-shelter install
// stays as simple as it was (no "Shelters" link, no chooser of one), so the
// header asks on every page; through the same /v1 list the directory uses,
// at most two organisations, and then rarely: organisations are never
// deleted, so once there are two there always will be, and while there is
// one the answer is kept for a minute (a second shelter shows up in the
// header within that minute). Each call would otherwise cost the visitor a
// request of their rate limit on every page.

const RECHECK_MS = 60_000;

let known: { many: boolean; at: number } | undefined;

type HeaderSource = Parameters<typeof callApi>[0];

export async function manyShelters(incoming: HeaderSource): Promise<boolean> {
  if (known?.many) return true;
  if (known && now().getTime() - known.at < RECHECK_MS) return false;
  const res = await callApi<unknown[]>(incoming, listOrganizations, "/v1/organizations?limit=2").catch(() => null);
  // Refused (a rate limit, the database away): keep what was known, and ask again next time.
  if (res?.status !== 200 || !Array.isArray(res.body)) return known?.many ?? false;
  known = { many: res.body.length > 1, at: now().getTime() };
  return known.many;
}

/** Tests: forget the answer (a test file may add the second shelter). */
export function forgetShelterCount(): void {
  known = undefined;
}
