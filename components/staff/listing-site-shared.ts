import type { ListingSite } from "@/lib/core/listing-sites";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";

// What the listing-site forms share: the connection test's wording, the account id's label.

/** The connection test's own refusal (its budgets) says what to do; other 429s are the rate limit's. */
export function describeTestError(error: unknown): string {
  return error instanceof ApiClientError && error.status === 429 && /tests|tried too often/.test(error.message) ? error.message : describeError(error);
}

export const ACCOUNT_LABEL: Record<ListingSite, string> = { petfinder: "Petfinder shelter ID", adoptapet: "", rescuegroups: "RescueGroups orgID" };
