"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { QUERY_DEFAULTS } from "@/components/query-defaults";

export function Providers({ children }: { children: React.ReactNode }) {
  // One client per browser tab (state, not a module global, so server
  // renders never share a cache between visitors).
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: QUERY_DEFAULTS } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
