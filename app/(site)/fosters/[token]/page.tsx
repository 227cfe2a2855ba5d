import { getTranslations } from "next-intl/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GET as fosterLinkGET } from "@/app/v1/foster-links/[token]/route";
import { FosterLinkProblem } from "@/components/fosters/foster-link-problem";
import { FosterPage } from "@/components/fosters/foster-page";
import { PetLoadFailed } from "@/components/pets/pet-load-failed";
import type { ErrorBody } from "@/lib/core/errors";
import type { FosterView } from "@/lib/fosters/links-schemas";
import { plainError } from "@/lib/site/plain-error";
import { serverApi } from "@/lib/site/server-api";

type Params = Promise<{ token: string }>;

// A private page: the link is the only key to it, so it is never indexed.
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("Foster"))("title"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

// /fosters/<token> - the foster's own page: their animals now, notes for the shelter, what they can take, "ready for another"
export default async function FosterLinkPage({ params }: { params: Params }) {
  const { token } = await params;
  const res = await serverApi<FosterView | ErrorBody>(fosterLinkGET, `/v1/foster-links/${encodeURIComponent(token)}`, { token });
  if (res.status === 404 || res.status === 400) notFound();
  if (res.status === 410) return <FosterLinkProblem kind="expired" />;
  if (res.status !== 200) return <PetLoadFailed error={plainError(res)} />;
  return <FosterPage token={token} initial={res.body as FosterView} />;
}
