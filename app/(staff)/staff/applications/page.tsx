import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { ApplicationsPanel } from "@/components/staff/applications-panel";

export const metadata: Metadata = { title: "Applications" };

// /staff/applications?state=&petId=&application= - the adoption applications inbox (staff only)
export default async function ApplicationsPage() {
  const session = await currentSession();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Applications</h1>
        <p className="text-stone-700">Adoption applications, newest first: review them, approve one per animal, then complete the adoption.</p>
      </div>
      <ApplicationsPanel initialSession={session} />
    </div>
  );
}
