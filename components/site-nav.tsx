import type { StaffScope } from "@/lib/site/staff-scope";

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
  shelters = false,
  signOut,
  saved,
  newApplications,
}: {
  pathname: string;
  /** Signed-in staff, and whose data they see; false for adopters. */
  staff: StaffScope | false;
  /** More than one shelter: the directory is worth a link (a one-shelter install keeps today's header). */
  shelters?: boolean;
  signOut?: React.ReactNode;
  /** The link to /saved with this browser's count (components/saved/saved-nav-link.tsx); a plain "Saved" link without it. */
  saved?: React.ReactNode;
  /** How many applications wait for a first look (staff); `more`: at least that many. Absent when unknown. */
  newApplications?: { count: number; more: boolean };
}) {
  const link = (href: string, label: React.ReactNode) => (
    <a href={href} className={navLinkClass(pathname === href)} aria-current={pathname === href ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <nav aria-label="Main" className="mx-auto max-w-6xl px-3 sm:px-4">
      <div className="flex flex-wrap items-center gap-x-0.5 gap-y-1 py-2 sm:gap-1">
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
        {shelters ? link("/shelters", "Shelters") : null}
        {saved ?? link("/saved", "Saved")}
        {link("/docs", "API docs")}
        {staff ? signOut : link("/staff/sign-in", "Staff sign in")}
      </div>
      {/* Staff get a second row: their tools, after whose data they see. */}
      {staff ? (
        <div className="flex flex-wrap items-center gap-x-0.5 gap-y-1 border-t border-stone-200 py-1.5 sm:gap-1">
          <StaffScopeBadge scope={staff} />
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
          {link("/staff/import", "Import")}
          {link("/staff/keys", "API keys")}
          {link("/staff/listing-sites", "Listing sites")}
          {staff.kind === "platform" ? link("/staff/organizations", "Organisations") : link("/staff/organization", "Shelter profile")}
        </div>
      ) : null}
    </nav>
  );
}

/**
 * Whose data the pages show this staff member: their organisation's name
 * (cut short with an ellipsis, whole on hover and for screen readers), or
 * "Platform admin" for someone who sees every organisation's.
 */
function StaffScopeBadge({ scope }: { scope: StaffScope }) {
  const label = scope.kind === "platform" ? "Platform admin" : (scope.name ?? "Your shelter");
  return (
    <span
      title={scope.kind === "platform" ? "You see and manage every organisation's data" : `You see and manage ${label}'s data`}
      className="mr-2 inline-flex max-w-full items-center gap-1.5 rounded-full border border-stone-300 bg-stone-50 px-3 py-1 text-sm font-semibold text-stone-800 sm:max-w-72"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 fill-stone-600">
        {scope.kind === "platform" ? (
          <path d="M10 1.5 3 4.5v5c0 4.2 2.9 7.8 7 9 4.1-1.2 7-4.8 7-9v-5l-7-3Zm0 2.2 5 2.1v3.7c0 3.1-2 5.9-5 6.9-3-1-5-3.8-5-6.9V5.8l5-2.1Z" />
        ) : (
          <path d="M10 2 2 7v2h1v7H2v2h16v-2h-1V9h1V7l-8-5Zm-5 7h2v7H5V9Zm4 0h2v7H9V9Zm4 0h2v7h-2V9Z" />
        )}
      </svg>
      <span className="truncate">
        <span className="sr-only">{scope.kind === "platform" ? "Signed in as " : "Signed in as staff of "}</span>
        {label}
      </span>
    </span>
  );
}
