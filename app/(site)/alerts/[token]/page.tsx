import type { Metadata } from "next";
import { AlertManager } from "@/components/alerts/alert-manager";

type Params = Promise<{ token: string }>;

// A private page: the link is the only key to it, so it is never indexed.
export const metadata: Metadata = { title: "Your alert", robots: { index: false, follow: false } };

// /alerts/<token> - an adopter's "email me new matches" alert: confirming it
// (from the browser, never on a GET: mail scanners that only follow links
// must not confirm an alert nobody asked for), then Pause/Resume and Delete.
export default async function AlertPage({ params }: { params: Params }) {
  const { token } = await params;
  return <AlertManager token={token} />;
}
