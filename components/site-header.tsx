"use client";

import { usePathname } from "next/navigation";
import { useSession } from "@/components/use-session";
import { useState } from "react";
import { SiteNav, navLinkClass } from "@/components/site-nav";
import { api, call, describeError } from "@/lib/site/api-client";

export function SiteHeader() {
  // Nullable in type only (the app also has a Pages Router page).
  const pathname = usePathname() ?? "/";
  const { data: session } = useSession();
  const staff = session?.kind === "staff";

  const [signOutError, setSignOutError] = useState<string | null>(null);

  async function signOut() {
    setSignOutError(null);
    try {
      await call(api.DELETE("/session"));
    } catch (error) {
      // Still signed in: say so, rather than pretend on a fresh page.
      setSignOutError(`Could not sign out: ${describeError(error)}`);
      return;
    }
    // A full page load (not a client-side push): the proxy mints the fresh
    // adopter session before anything asks the API again, and no staff data
    // stays in memory.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load is the point (see above)
    window.location.assign("/");
  }

  return (
    <header className="border-b border-stone-200 bg-white">
      <SiteNav
        pathname={pathname}
        staff={staff}
        signOut={
          <button type="button" onClick={signOut} className={navLinkClass(false)}>
            Sign out
          </button>
        }
      />
      {signOutError ? (
        <p role="alert" className="mx-auto max-w-6xl px-4 pb-2 text-sm font-medium text-red-800">
          {signOutError}
        </p>
      ) : null}
    </header>
  );
}
