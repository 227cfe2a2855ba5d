"use client";

import { useState } from "react";
import { navLinkClass } from "@/components/site-nav";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";

/** The header's one interactive part, for signed-in staff: sign out, and say so when it fails. */
export function SignOutButton() {
  const [error, setError] = useState<string | null>(null);

  async function signOut() {
    setError(null);
    try {
      await callApi((api) => api.DELETE("/session"));
    } catch (failure) {
      // Still signed in: say so, rather than pretend on a fresh page.
      setError(`Could not sign out: ${describeError(failure)}`);
      return;
    }
    // A full page load (not a client-side push): the proxy mints the fresh
    // adopter session before anything asks the API again, and no staff data
    // stays in memory.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load is the point (see above)
    window.location.assign("/");
  }

  return (
    <>
      <button type="button" onClick={signOut} className={navLinkClass(false)}>
        Sign out
      </button>
      {error ? (
        <p role="alert" className="basis-full text-right text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </>
  );
}
