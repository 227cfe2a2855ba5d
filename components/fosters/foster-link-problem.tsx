import { getTranslations } from "next-intl/server";
import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { Picture } from "@/components/pets/pet-picture";

/** A foster link that opens nothing: never there (404), or expired / closed (410). Says what to do next. */
export async function FosterLinkProblem({ kind }: { kind: "notFound" | "expired" }) {
  const t = await getTranslations("Foster");
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center" data-testid={`foster-link-${kind}`}>
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">{t(`${kind}Heading`)}</h1>
      <p className="text-stone-700">{t(`${kind}Text`)}</p>
      <BackToBrowseLink />
    </div>
  );
}
