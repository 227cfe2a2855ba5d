import { Providers } from "@/components/providers";

// The animal's page keeps its data in react-query (staff edit it in place,
// optimistically). The provider is here rather than in the root layout so
// that the browse page, which does without it, does not load it.
export default function PetLayout({ children }: { children: React.ReactNode }) {
  return <Providers>{children}</Providers>;
}
