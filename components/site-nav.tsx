import type { StaffScope } from "@/lib/site/staff-scope";

/**
 * The adopters' words of the navigation, in the page's language (messages'
 * "Nav"). A type only: this file is also in the browser's bundle (navLinkClass).
 */
export type NavLabels = (typeof import("@/messages/en.json"))["Nav"];

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
  labels,
  to = (path) => path,
  switcher,
}: {
  pathname: string;
  /** The words, in the page's language (the API reference is English only). */
  labels: NavLabels;
  /** A site path in the page's language ("/saved" → "/es/saved"). */
  to?: (path: string) => string;
  /** The language switcher (components/language-switcher.tsx); absent on the English-only API reference. */
  switcher?: React.ReactNode;
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
  // Adopter pages follow the page's language; the API reference and the
  // staff pages are English only (issue 36) and keep their one address.
  const plainLink = (href: string, label: React.ReactNode, address = href) => (
    <a href={address} className={navLinkClass(pathname === href)} aria-current={pathname === href ? "page" : undefined}>
      {label}
    </a>
  );
  const link = (href: string, label: React.ReactNode) => plainLink(href, label, to(href));
  return (
    <nav aria-label={labels.main} className="mx-auto max-w-6xl px-3 sm:px-4">
      <div className="flex flex-wrap items-center gap-x-0.5 gap-y-1 py-2 sm:gap-1">
        <a
          href={to("/")}
          className="mr-auto flex items-center gap-2 rounded-md px-1 py-1 text-lg font-bold text-emerald-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-emerald-700"
        >
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
        {link("/", labels.browse)}
        {shelters ? link("/shelters", labels.shelters) : null}
        {saved ?? link("/saved", labels.saved)}
        {plainLink("/docs", labels.apiDocs)}
        {staff ? signOut : plainLink("/staff/sign-in", labels.staffSignIn)}
        {switcher}
      </div>
      {/* Staff get a second row: their tools, after whose data they see. */}
      {staff ? (
        <div className="flex flex-wrap items-center gap-x-0.5 gap-y-1 border-t border-stone-200 py-1.5 sm:gap-1">
          <StaffScopeBadge scope={staff} />
          {plainLink("/staff", "Dashboard")}
          {plainLink(
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
          {plainLink("/staff/pets/new", "Add an animal")}
          {plainLink("/staff/pets", "Out of care")}
          {plainLink("/staff/fosters", "Fosters")}
          {plainLink("/staff/import", "Import")}
          {plainLink("/staff/keys", "API keys")}
          {plainLink("/staff/listing-sites", "Listing sites")}
          {plainLink("/staff/reports", "Reports")}
          {staff.kind === "platform" ? plainLink("/staff/organizations", "Organisations") : plainLink("/staff/organization", "Shelter profile")}
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
