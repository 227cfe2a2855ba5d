import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { ApplicationsPanel } from "@/components/staff/applications-panel";
import { mailConfigured } from "@/lib/mail/mailer";

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
      {session?.kind === "staff" && !mailConfigured() ? (
        // Staff should know before they decide that nobody will hear of it by email.
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          Email is not set up (<code>SMTP_URL</code>), so applicants get no confirmation or decision by email: they follow their application only through the
          private link shown when they applied. Tell them your decision another way.
        </p>
      ) : null}
      <ApplicationsPanel initialSession={session} />
    </div>
  );
}
