import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { FosterTabs } from "@/components/staff/foster-tabs";
import { FostersPanel } from "@/components/staff/fosters-panel";
import { countryChoices } from "@/lib/site/countries";

export const metadata: Metadata = { title: "Fosters" };

// /staff/fosters - the organisation's foster homes: who can take an animal
// now, add and change fosters, remove one (staff only).
export default async function FostersPage() {
  const session = await currentSession();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Fosters</h1>
        <p className="text-stone-700">
          The volunteers who care for your animals at home: who can take one now, how many, which species, and when they are away. Place an animal from its own
          page.
        </p>
      </div>
      <FosterTabs current="/staff/fosters" />
      <FostersPanel initialSession={session} view={{ kind: "roster", countries: countryChoices() }} />
    </div>
  );
}
