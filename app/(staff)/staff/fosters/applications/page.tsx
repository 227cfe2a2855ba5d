import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { FosterTabs } from "@/components/staff/foster-tabs";
import { FosterApplicationsPanel } from "@/components/fosters/foster-applications-panel";
import { mailConfigured } from "@/lib/mail/mailer";

export const metadata: Metadata = { title: "Foster applications" };

// /staff/fosters/applications?person= - foster applicants to approve or decline, and a foster's page (notes, "ready for another") (staff only)
export default async function FosterApplicationsPage() {
  const session = await currentSession();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Foster applications</h1>
        <p className="text-stone-700">
          People who applied to foster on your shelter&apos;s page, newest first. Approve one to make them an active foster: they are emailed their private
          foster page. Decline with a message to tell them why; what they sent stays here for staff.
        </p>
      </div>
      <FosterTabs current="/staff/fosters/applications" />
      {session?.kind === "staff" && !mailConfigured() ? (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          Email is not set up (<code>SMTP_URL</code>), so applicants get no confirmation, no decision and no foster link by email. Tell them your decision
          another way.
        </p>
      ) : null}
      <FosterApplicationsPanel initialSession={session} />
    </div>
  );
}
