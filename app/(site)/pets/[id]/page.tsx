import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { GET as categoriesGET } from "@/app/v1/categories/route";
import { GET as getPetGET } from "@/app/v1/pets/[petId]/route";
import type { ErrorBody } from "@/lib/http/errors";
import type { Category, Pet } from "@/lib/pets/schemas";
import { serverApi } from "@/lib/site/server-api";
import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { PetLoadFailed } from "@/components/pets/pet-load-failed";
import { PetProfile } from "@/components/pets/pet-profile";

type Params = Promise<{ id: string }>;

type PetResult = { kind: "found"; pet: Pet } | { kind: "missing" } | { kind: "failed"; status: number; body: Partial<ErrorBody>; retryAfter?: number };

// One call per request, shared by generateMetadata and the page (each call is rate-limited).
const loadPet = cache(async (id: string): Promise<PetResult> => {
  // Not a number at all: no need to ask the API to say so.
  if (!/^[0-9]{1,20}$/.test(id)) return { kind: "missing" };
  const res = await serverApi<Pet | ErrorBody>(getPetGET, `/v1/pets/${id}`, { petId: id });
  if (res.status === 200) return { kind: "found", pet: res.body as Pet };
  // 400: an id out of range (beyond 2^53-1) names no animal either.
  if (res.status === 404 || res.status === 400) return { kind: "missing" };
  const retry = res.headers.get("retry-after");
  return { kind: "failed", status: res.status, body: (res.body ?? {}) as Partial<ErrorBody>, ...(retry && /^\d+$/.test(retry) ? { retryAfter: Number(retry) } : {}) };
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const result = await loadPet((await params).id);
  if (result.kind === "found") return { title: result.pet.name };
  return { title: result.kind === "missing" ? "Animal not found" : "Animal unavailable" };
}

export default async function PetPage({ params }: { params: Params }) {
  const result = await loadPet((await params).id);
  if (result.kind === "missing") notFound();
  if (result.kind === "failed") {
    const { status, body, retryAfter } = result;
    return <PetLoadFailed error={{ status, code: body.code ?? "unknown_error", message: body.message ?? `The server answered ${status}.`, retryAfter }} />;
  }

  const categories = await serverApi<Category[] | ErrorBody>(categoriesGET, "/v1/categories");
  const categoryName = categories.status === 200 ? (categories.body as Category[]).find((c) => c.id === result.pet.categoryId)?.name : undefined;
  return (
    <div className="space-y-6">
      <BackToBrowseLink />
      <PetProfile pet={result.pet} categoryName={categoryName} />
    </div>
  );
}
