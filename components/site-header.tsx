"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useSession } from "@/components/use-session";
import { useState } from "react";
import { api, call, describeError } from "@/lib/site/api-client";

const linkClass = (active: boolean) =>
  `rounded-md px-3 py-2 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 ${
    active ? "bg-emerald-100 text-emerald-900" : "text-stone-700 hover:bg-stone-100"
  }`;

export function SiteHeader() {
  const pathname = usePathname();
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
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-1 px-4 py-2">
        <Link href="/" className="mr-auto flex items-center gap-2 rounded-md px-1 py-1 text-lg font-bold text-emerald-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-700">
          <svg aria-hidden="true" viewBox="0 0 64 64" className="h-6 w-6">
            <rect width="64" height="64" rx="14" fill="#065f46" />
            <g fill="#ecfdf5">
              <ellipse cx="32" cy="41" rx="13" ry="11" />
              <ellipse cx="17" cy="27" rx="5" ry="7" />
              <ellipse cx="27" cy="18" rx="5" ry="7" />
              <ellipse cx="37" cy="18" rx="5" ry="7" />
              <ellipse cx="47" cy="27" rx="5" ry="7" />
            </g>
          </svg>
          Petstore
        </Link>
        <Link href="/" className={linkClass(pathname === "/")} aria-current={pathname === "/" ? "page" : undefined}>
          Browse
        </Link>
        <Link href="/docs" className={linkClass(pathname === "/docs")} aria-current={pathname === "/docs" ? "page" : undefined}>
          API docs
        </Link>
        {staff ? (
          <>
            <Link href="/staff/pets/new" className={linkClass(pathname === "/staff/pets/new")} aria-current={pathname === "/staff/pets/new" ? "page" : undefined}>
              Add an animal
            </Link>
            <Link href="/staff/keys" className={linkClass(pathname === "/staff/keys")} aria-current={pathname === "/staff/keys" ? "page" : undefined}>
              API keys
            </Link>
            <button type="button" onClick={signOut} className={linkClass(false)}>
              Sign out
            </button>
          </>
        ) : (
          <Link href="/staff/sign-in" className={linkClass(pathname === "/staff/sign-in")} aria-current={pathname === "/staff/sign-in" ? "page" : undefined}>
            Staff sign in
          </Link>
        )}
      </nav>
      {signOutError ? (
        <p role="alert" className="mx-auto max-w-6xl px-4 pb-2 text-sm font-medium text-red-800">
          {signOutError}
        </p>
      ) : null}
    </header>
  );
}
