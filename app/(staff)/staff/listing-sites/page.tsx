import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { ListingSitesPanel } from "@/components/staff/listing-sites-panel";

export const metadata: Metadata = { title: "Listing sites" };

// /staff/listing-sites - the shelter's accounts on Petfinder, Adopt-a-Pet and RescueGroups, and their uploads (staff only)
export default async function ListingSitesPage() {
  const session = await currentSession();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Listing sites</h1>
        <p className="text-stone-700">
          Your animals on Petfinder, Adopt-a-Pet and RescueGroups: each change is sent within minutes, and everything once a day at 03:00 UTC.
        </p>
      </div>
      <ListingSitesPanel initialSession={session} />
    </div>
  );
}
