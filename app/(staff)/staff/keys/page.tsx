import type { Metadata } from "next";
import { currentSession } from "@/app/(staff)/staff-data";
import { KeysPanel } from "@/components/staff/keys-panel";

export const metadata: Metadata = { title: "API keys" };

// /staff/keys - issue, list, revoke API keys and lift bans (staff only)
export default async function ApiKeysPage() {
  const session = await currentSession();
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">API keys</h1>
        <p className="text-stone-700">Keys let partners call the API from their own servers and pages.</p>
      </div>
      <KeysPanel initialSession={session} />
    </div>
  );
}
