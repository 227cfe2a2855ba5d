import { getTranslations } from "next-intl/server";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { GET as categoriesGET } from "@/app/v1/categories/route";
import { GET as organizationGET } from "@/app/v1/organizations/[organizationId]/route";
import { GET as listPetsGET } from "@/app/v1/pets/route";
import type { ErrorBody } from "@/lib/core/errors";
import type { Organization } from "@/lib/organizations/schemas";
import type { Category, Pet } from "@/lib/pets/schemas/pet";
import { serverApi } from "@/lib/site/server-api";
import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { PetDetails } from "@/components/pets/pet-details";
import { PetLoadFailed } from "@/components/pets/pet-load-failed";
import { PetShelter } from "@/components/shelters/pet-shelter";

type Params = Promise<{ id: string }>;

type PetResult =
  { kind: "found"; pet: Pet; fetchedAt: number } | { kind: "missing" } | { kind: "failed"; status: number; body: Partial<ErrorBody>; retryAfter?: number };

// One call per request, shared by generateMetadata and the page (each call is rate-limited).
const loadPet = cache(async (id: string): Promise<PetResult> => {
  // Not a number at all: no need to ask the API to say so.
  if (!/^[0-9]{1,20}$/.test(id)) return { kind: "missing" };
  // Through the list filtered by id, getPet's successor, not getPet itself:
  // GET /v1/pets/{id} answers 410 from its sunset (2030-12-05) on.
  const res = await serverApi<Pet[] | ErrorBody>(listPetsGET, `/v1/pets?id=${id}`);
  if (res.status === 200) {
    const [pet] = res.body as Pet[];
    return pet ? { kind: "found", pet, fetchedAt: Date.now() } : { kind: "missing" };
  }
  // 400: an id out of range (0, beyond 2^53-1) names no animal either.
  if (res.status === 400) return { kind: "missing" };
  const retry = res.headers.get("retry-after");
  return {
    kind: "failed",
    status: res.status,
    body: (res.body ?? {}) as Partial<ErrorBody>,
    ...(retry && /^\d+$/.test(retry) ? { retryAfter: Number(retry) } : {}),
  };
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const result = await loadPet((await params).id);
  if (result.kind === "found") {
    // What a link shared in a chat or a post previews: the cover and the start of the description.
    const { pet } = result;
    const cover = pet.photos[0];
    const largest = cover && Object.entries(cover.urls).sort((a, b) => Number(b[0]) - Number(a[0]))[0];
    const description = pet.description ? [...pet.description.replace(/\s+/g, " ").trim()].slice(0, 160).join("") : undefined;
    return {
      title: pet.name,
      ...(description ? { description } : {}),
      openGraph: {
        title: pet.name,
        ...(description ? { description } : {}),
        ...(cover && largest
          ? {
              images: [
                { url: largest[1], width: Number(largest[0]), height: Math.round((cover.height * Number(largest[0])) / cover.width), alt: cover.alt ?? "" },
              ],
            }
          : {}),
      },
    };
  }
  const t = await getTranslations("Pet");
  return { title: result.kind === "missing" ? t("notFoundTitle") : t("unavailableTitle") };
}

export default async function PetPage({ params }: { params: Params }) {
  const result = await loadPet((await params).id);
  if (result.kind === "missing") notFound();
  if (result.kind === "failed") {
    const { status, body, retryAfter } = result;
    return <PetLoadFailed error={{ status, code: body.code ?? "unknown_error", message: body.message ?? `The server answered ${status}.`, retryAfter }} />;
  }

  // Both at once: the page waits for one round of in-process calls, not two.
  const organizationId = String(result.pet.organizationId);
  const [categories, organization] = await Promise.all([
    serverApi<Category[] | ErrorBody>(categoriesGET, "/v1/categories"),
    serverApi<Organization | ErrorBody>(organizationGET, `/v1/organizations/${organizationId}`, { organizationId }),
  ]);
  return (
    <div className="space-y-6">
      <BackToBrowseLink />
      <PetDetails
        initial={{ pet: result.pet, fetchedAt: result.fetchedAt }}
        categories={categories.status === 200 ? (categories.body as Category[]) : undefined}
        shelter={<PetShelter petName={result.pet.name} organization={organization.status === 200 ? (organization.body as Organization) : null} />}
      />
    </div>
  );
}
