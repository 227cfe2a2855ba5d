import type { Metadata } from "next";
import { categoriesForStaff, currentSession, oneParam } from "@/app/(staff)/staff-data";
import { GET as listPetsRoute } from "@/app/v1/pets/route";
import { PageTransitionProvider } from "@/components/shelters/page-transition";
import { PagerLinks } from "@/components/shelters/pager-links";
import { linkCursor } from "@/components/shelters/shelters-query";
import { FormAlert } from "@/components/staff/form-alert";
import { StaffOnlyPage } from "@/components/staff/staff-only";
import { inputClass, labelClass, linkClass, panelClass, primaryButtonClass } from "@/components/staff/styles";
import type { Pet } from "@/lib/pets/schemas/pet";
import { serverApi } from "@/lib/site/server-api";

export const metadata: Metadata = { title: "Out of care" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// /staff/pets?q=…&cursor=… - the animals out of care: their last stay ended
// other than by adoption (transferred out, returned to their owner…), so no
// list adopters or partners see holds them. Staff find one here to read its
// records or take it in again (its page's Stays panel). Drawn on the server
// from GET /v1/pets?inCare=false, newest first, 50 a page, paged with the
// shelters' pager links; the search is a plain GET form.
export default async function OutOfCarePage({ searchParams }: { searchParams: SearchParams }) {
  const [session, params] = await Promise.all([currentSession(), searchParams]);
  const intro = (
    <div className="space-y-1">
      <h1 className="text-2xl font-bold">Out of care</h1>
      <p className="text-stone-700">
        Animals whose last stay ended other than by adoption (transferred out, returned to their owner, died…). They are on no adoption page or listing site;
        their records stay here. To take one in again, open it and record a new intake.
      </p>
    </div>
  );
  if (session?.kind !== "staff") {
    return <StaffOnlyPage intro={intro} next="/staff/pets" doing="see the animals out of care" />;
  }

  const [q, cursor] = [oneParam(params.q), oneParam(params.cursor)];
  const query = new URLSearchParams({ inCare: "false", limit: "50", ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) });
  const [res, categories] = await Promise.all([serverApi<Pet[]>(listPetsRoute, `/v1/pets?${query.toString()}`), categoriesForStaff()]);
  const categoryName = new Map(categories?.map((c) => [c.id, c.name]) ?? []);
  const search = (
    <form
      method="get"
      action="/staff/pets"
      className={`${panelClass} grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end`}
      aria-label="Search the animals out of care"
    >
      <div>
        <label htmlFor="out-of-care-q" className={labelClass}>
          Name
        </label>
        <input id="out-of-care-q" name="q" type="search" defaultValue={q} className={inputClass(false)} />
      </div>
      <button type="submit" className={primaryButtonClass}>
        Search
      </button>
    </form>
  );

  if (res.status !== 200) {
    return (
      <div className="space-y-6">
        {intro}
        {search}
        <FormAlert>
          Could not list the animals just now{res.status === 429 ? " (too many requests)" : ""}.{" "}
          <a href="/staff/pets" className={linkClass}>
            Try again
          </a>
        </FormAlert>
      </div>
    );
  }

  const pets = res.body;
  const href = (rel: "prev" | "next") => {
    const cursor = linkCursor(res.headers.get("link"), rel);
    return cursor === undefined ? undefined : `/staff/pets?${new URLSearchParams({ ...(q ? { q } : {}), cursor }).toString()}`;
  };
  const [prevHref, nextHref] = [href("prev"), href("next")];
  return (
    <div className="space-y-6">
      {intro}
      {search}
      {pets.length === 0 ? (
        <p className="text-stone-700">{q ? `No animal out of care is called “${q}”.` : "No animal is out of care."}</p>
      ) : (
        <div className={`${panelClass} overflow-x-auto`}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Animals out of care, newest first</caption>
            <thead>
              <tr className="border-b border-stone-200 text-stone-700">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Name
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Kind
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Shelter&rsquo;s id
                </th>
                <th scope="col" className="py-2 font-semibold">
                  Intake date
                </th>
              </tr>
            </thead>
            <tbody>
              {pets.map((pet) => (
                <tr key={pet.id} className="border-b border-stone-100 last:border-0">
                  <td className="py-2 pr-4">
                    <a href={`/pets/${pet.id}`} className={linkClass}>
                      {pet.name}
                    </a>
                  </td>
                  <td className="py-2 pr-4">{categoryName.get(pet.categoryId) ?? "—"}</td>
                  <td className="py-2 pr-4">{pet.externalId ?? "—"}</td>
                  <td className="py-2">{pet.intakeDate ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {prevHref || nextHref ? (
        <PageTransitionProvider>
          <PagerLinks prevHref={prevHref} nextHref={nextHref} />
        </PageTransitionProvider>
      ) : null}
    </div>
  );
}
