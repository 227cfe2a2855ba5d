import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { safeNextPath } from "@/components/staff/next-path";
import { SignInPanel } from "@/components/staff/sign-in-panel";

export const metadata: Metadata = { title: "Staff sign in" };

// /staff/sign-in?next=/path - staff sign in, then go on to `next` (a path of this site)
export default async function StaffSignInPage({ searchParams }: PageProps<"/staff/sign-in">) {
  const { next } = await searchParams;
  const session = await currentSession();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Staff sign in</h1>
      <SignInPanel next={safeNextPath(next)} initialSession={session} />
    </div>
  );
}
