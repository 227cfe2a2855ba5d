import { ApiClientError } from "@/lib/site/api-error";

// How the site's pages fetch through react-query, in one place: the
// provider of the staff and animal pages (components/providers.tsx) and the
// browse page's own client, which loads with its other views' code
// (components/pets/browse-later.ts).
export const QUERY_DEFAULTS = {
  staleTime: 30_000,
  // Client errors (4xx, 429 included) are not retried blindly: 429 carries
  // its own wait, shown to the person instead.
  retry: (count: number, error: unknown) => !(error instanceof ApiClientError && error.status >= 400 && error.status < 500) && count < 2,
  refetchOnWindowFocus: false,
} as const;
