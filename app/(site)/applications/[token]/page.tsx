import { getTranslations } from "next-intl/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { GET as applicationLinkGET } from "@/app/v1/application-links/[token]/route";
import type { ApplicationStatus } from "@/lib/applications/schemas";
import type { ErrorBody } from "@/lib/core/errors";
import { serverApi } from "@/lib/site/server-api";
import { ApplicationStatusView } from "@/components/adopt/application-status";
import { PetLoadFailed } from "@/components/pets/pet-load-failed";

type Params = Promise<{ token: string }>;

// A private page: the link is the only key to it, so it is never indexed.
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("Application"))("title"), robots: { index: false, follow: false } };
}

// /applications/<token> - the applicant's own application: its status, and Withdraw while it is undecided
export default async function ApplicationPage({ params }: { params: Params }) {
  const { token } = await params;
  const res = await serverApi<ApplicationStatus | ErrorBody>(applicationLinkGET, `/v1/application-links/${encodeURIComponent(token)}`, { token });
  if (res.status === 404 || res.status === 400) notFound();
  if (res.status !== 200) {
    const body = res.body as Partial<ErrorBody>;
    const retry = res.headers.get("retry-after");
    return (
      <PetLoadFailed
        error={{
          status: res.status,
          code: body.code ?? "unknown_error",
          message: body.message ?? `The server answered ${res.status}.`,
          retryAfter: retry && /^\d+$/.test(retry) ? Number(retry) : undefined,
        }}
      />
    );
  }
  return <ApplicationStatusView token={token} initial={res.body as ApplicationStatus} />;
}
