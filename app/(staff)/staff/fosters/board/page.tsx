import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { FosterTabs } from "@/components/staff/foster-tabs";
import { FostersPanel } from "@/components/staff/fosters-panel";

export const metadata: Metadata = { title: "Where animals are" };

// /staff/fosters/board - every animal in care, where it is now: at the
// shelter or with which foster, overdue returns first (staff only).
export default async function FosterBoardPage() {
  const session = await currentSession();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Where animals are</h1>
        <p className="text-stone-700">Every animal in your care right now: at the shelter, or with a foster (grouped by foster). Overdue returns come first.</p>
      </div>
      <FosterTabs current="/staff/fosters/board" />
      <FostersPanel initialSession={session} view={{ kind: "board" }} />
    </div>
  );
}
