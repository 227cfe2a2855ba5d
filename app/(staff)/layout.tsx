import type { Metadata } from "next";
import { Providers } from "@/components/providers";

// Staff tools are not for search engines.
export const metadata: Metadata = { robots: { index: false, follow: false } };

export default function StaffLayout({ children }: { children: React.ReactNode }) {
  return <Providers>{children}</Providers>;
}
