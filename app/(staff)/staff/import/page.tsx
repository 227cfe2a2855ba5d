import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { ImportPanel } from "@/components/staff/import-panel";

export const metadata: Metadata = { title: "Import animals" };

// /staff/import - import a listing file (Petfinder, Adopt-a-Pet, RescueGroups, any CSV): preview, import, progress, report
export default async function ImportPage() {
  const session = await currentSession();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Import animals</h1>
        <p className="text-stone-700">Bring your animals over from another system: a listing site&apos;s file, or any spreadsheet saved as CSV.</p>
      </div>
      <ImportPanel initialSession={session} />
    </div>
  );
}
