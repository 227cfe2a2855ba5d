import type { Metadata } from "next";
import { currentSession, organizationForStaff, placedAtZip } from "@/app/(staff)/staff-data";
import { FormAlert } from "@/components/staff/form-alert";
import { OrganizationPreview } from "@/components/staff/organization-preview";
import { OrganizationProfileForm } from "@/components/staff/organization-profile-form";
import { StaffOnlyPage } from "@/components/staff/staff-only";
import { linkClass, panelClass } from "@/components/staff/styles";
import { countryChoices } from "@/lib/site/countries";

export const metadata: Metadata = { title: "Shelter profile" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// /staff/organization - staff edit their organisation's profile (name,
// contact, address, position) beside what adopters see of it. A platform
// admin edits any organisation's: /staff/organization?id=<id>, from the
// organisations list.
export default async function OrganizationProfilePage({ searchParams }: { searchParams: SearchParams }) {
  const [session, params] = await Promise.all([currentSession(), searchParams]);
  const intro = (
    <div className="space-y-1">
      <h1 className="text-2xl font-bold">Shelter profile</h1>
      <p className="text-stone-700">Your shelter as adopters see it: its name, how to reach it, and where it is, so searches near a place find it.</p>
    </div>
  );
  if (session?.kind !== "staff") {
    return <StaffOnlyPage intro={intro} next="/staff/organization" doing="edit your shelter's profile" />;
  }
  const asked = typeof params.id === "string" && /^[0-9]{1,15}$/.test(params.id) ? Number(params.id) : undefined;
  const id = session.platformAdmin ? asked : (session.organizationId ?? undefined);
  if (id === undefined) {
    return (
      <div className="space-y-6">
        {intro}
        <div className={`${panelClass} max-w-xl space-y-2`}>
          <h2 className="text-lg font-semibold">Which organisation?</h2>
          <p>
            As a platform admin you belong to no shelter: choose the organisation whose profile to edit from{" "}
            <a href="/staff/organizations" className={linkClass}>
              the organisations
            </a>
            .
          </p>
        </div>
      </div>
    );
  }
  const { status, organization } = await organizationForStaff(id);
  if (!organization) {
    return (
      <div className="space-y-6">
        {intro}
        <FormAlert>
          {status === 404 ? `There is no organisation ${id}.` : `Could not load the profile just now${status === 429 ? " (too many requests)" : ""}.`}{" "}
          <a href={session.platformAdmin ? "/staff/organizations" : "/staff/organization"} className={linkClass}>
            {status === 404 ? "See the organisations" : "Try again"}
          </a>
        </FormAlert>
      </div>
    );
  }
  const own = !session.platformAdmin;
  return (
    <div className="space-y-6">
      {intro}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <OrganizationProfileForm
          key={organization.id}
          organization={organization}
          placedAtZip={await placedAtZip(organization)}
          heading={own ? "Your shelter’s profile" : `${organization.name}’s profile`}
          countries={countryChoices()}
        />
        {/* Drawn on the server, and again after each save (the form refreshes the page). */}
        <div className="lg:sticky lg:top-4">
          <OrganizationPreview organization={organization} />
        </div>
      </div>
    </div>
  );
}
