import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { GET as listApplications } from "@/app/v1/applications/route";
import { GET as getSession } from "@/app/v1/session/route";
import { SignOutSlot } from "@/components/sign-out-slot";
import { SavedNavLink } from "@/components/saved/saved-nav-link";
import { LanguageSwitcher } from "@/components/language-switcher";
import { SiteNav, type NavLabels } from "@/components/site-nav";
import { localePath } from "@/lib/i18n/locales";
import { pageLocale } from "@/lib/i18n/server";
import { PATHNAME_HEADER } from "@/lib/core/socket-address";
import { serverApi } from "@/lib/site/server-api";
import { manyShelters } from "@/lib/site/shelter-count";
import { staffScopeOf } from "@/lib/site/staff-scope";
import type { SessionInfo } from "@/lib/staff/schemas";

/** Counted up to this many; beyond, the header says "100+". */
const NEW_APPLICATIONS_COUNTED = 100;

/**
 * How many applications wait for a first look (state received), for staff
 * who handle them: one in-process call of the inbox's own handler, at most
 * a page of them. undefined when the API said no (the link shows no count).
 */
async function newApplicationsCount(): Promise<{ count: number; more: boolean } | undefined> {
  const res = await serverApi<unknown[]>(listApplications, `/v1/applications?state=received&limit=${NEW_APPLICATIONS_COUNTED}`).catch(() => null);
  if (res?.status !== 200 || !Array.isArray(res.body)) return undefined;
  return { count: res.body.length, more: res.headers.has("x-next-before") };
}

/**
 * The site's header, rendered on the server for each page: who is signed in
 * comes from the same /v1/session handler the browser would ask, in-process,
 * so no page ships code or makes a request just to draw its navigation
 * (the sign-out button's own code loads only where it is shown).
 * It also says whose data a staff member sees, and links the shelters'
 * directory only where there is more than one shelter.
 * Every link in it is a whole-page load, so it is always current (and
 * the applications inbox refreshes it, router.refresh(), after each step,
 * for its count of new applications).
 */
export async function SiteHeader() {
  const [session, incoming] = await Promise.all([serverApi<SessionInfo>(getSession, "/v1/session").catch(() => null), headers()]);
  const info = session?.status === 200 ? session.body : null;
  const [staff, shelters, newApplications] = await Promise.all([
    staffScopeOf(incoming, info),
    manyShelters(incoming),
    info?.kind === "staff" && info.scopes.includes("applications:manage") ? newApplicationsCount() : undefined,
  ]);
  const pathname = incoming.get(PATHNAME_HEADER) ?? "";
  const [locale, t] = await Promise.all([pageLocale(), getTranslations("Nav")]);
  const labels: NavLabels = {
    main: t("main"),
    browse: t("browse"),
    shelters: t("shelters"),
    saved: t("saved"),
    apiDocs: t("apiDocs"),
    staffSignIn: t("staffSignIn"),
  };
  // Staff pages are English only in this issue: no switcher there.
  const adopterPage = !pathname.startsWith("/staff");
  const switcherLabel = (await getTranslations("Switcher"))("label");
  return (
    <header className="border-b border-stone-200 bg-white">
      <SiteNav
        pathname={pathname}
        labels={labels}
        to={(path) => localePath(locale, path)}
        switcher={adopterPage ? <LanguageSwitcher locale={locale} path={pathname || "/"} label={switcherLabel} /> : undefined}
        staff={staff}
        shelters={shelters}
        signOut={<SignOutSlot />}
        saved={<SavedNavLink active={pathname === "/saved"} href={localePath(locale, "/saved")} label={labels.saved} />}
        newApplications={newApplications}
      />
    </header>
  );
}
