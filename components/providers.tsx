"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { ApiClientError } from "@/lib/site/api-client-core";

export function Providers({ children }: { children: React.ReactNode }) {
  // One client per browser tab (state, not a module global, so server
  // renders never share a cache between visitors).
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 30_000,
            // Client errors (4xx, 429 included) are not retried blindly: 429
            // carries its own wait, shown to the person instead.
            retry: (count, error) => !(error instanceof ApiClientError && error.status >= 400 && error.status < 500) && count < 2,
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
