// The site's main navigation, as markup only (no hooks, no state): the
// interactive header (components/site-header.tsx) and the script-free API
// reference (pages/docs.tsx) both render it.

export const navLinkClass = (active: boolean) =>
  `rounded-md px-2 py-2 text-sm font-medium sm:px-3 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 ${
    active ? "bg-emerald-100 text-emerald-900" : "text-stone-700 hover:bg-stone-100"
  }`;

export function SiteNav({
  pathname,
  staff,
  signOut,
  newApplications,
}: {
  pathname: string;
  staff: boolean;
  signOut?: React.ReactNode;
  /** How many applications wait for a first look (staff); `more`: at least that many. Absent when unknown. */
  newApplications?: { count: number; more: boolean };
}) {
  const link = (href: string, label: React.ReactNode) => (
    <a href={href} className={navLinkClass(pathname === href)} aria-current={pathname === href ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-0.5 gap-y-1 px-3 py-2 sm:gap-1 sm:px-4">
      <a href="/" className="mr-auto flex items-center gap-2 rounded-md px-1 py-1 text-lg font-bold text-emerald-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-700">
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
      </a>
      {link("/", "Browse")}
      {link("/docs", "API docs")}
      {staff ? (
        <>
          {link("/staff", "Dashboard")}
          {link(
            "/staff/applications",
            newApplications && newApplications.count > 0 ? (
              <>
                Applications ({newApplications.count}
                {newApplications.more ? "+" : ""}
                <span className="sr-only"> new</span>)
              </>
            ) : (
              "Applications"
            ),
          )}
          {link("/staff/pets/new", "Add an animal")}
          {link("/staff/keys", "API keys")}
          {signOut}
        </>
      ) : (
        link("/staff/sign-in", "Staff sign in")
      )}
    </nav>
  );
}
