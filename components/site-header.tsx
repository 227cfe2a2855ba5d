import { headers } from "next/headers";
import { GET as getSession } from "@/app/v1/session/route";
import { SignOutButton } from "@/components/sign-out-button";
import { SiteNav } from "@/components/site-nav";
import { PATHNAME_HEADER } from "@/lib/http/socket-address";
import { serverApi } from "@/lib/site/server-api";
import type { SessionInfo } from "@/lib/staff/schemas";

/**
 * The site's header, rendered on the server for each page: who is signed in
 * comes from the same /v1/session handler the browser would ask, in-process,
 * so no page ships code or makes a request just to draw its navigation.
 * Every link in it is a whole-page load, so it is always current.
 */
export async function SiteHeader() {
  const [session, incoming] = await Promise.all([serverApi<SessionInfo>(getSession, "/v1/session").catch(() => null), headers()]);
  const staff = session?.status === 200 && session.body.kind === "staff";
  return (
    <header className="border-b border-stone-200 bg-white">
      <SiteNav pathname={incoming.get(PATHNAME_HEADER) ?? ""} staff={staff} signOut={<SignOutButton />} />
    </header>
  );
}
