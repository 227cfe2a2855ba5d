import { linkClass, panelClass } from "@/components/staff/styles";

/** What a visitor who is not signed in as staff sees instead of a staff tool (`next`: a plain path of ours). */
export function StaffOnly({ next, doing }: { next: string; doing: string }) {
  return (
    <div className={`${panelClass} max-w-xl space-y-2`}>
      <h2 className="text-lg font-semibold">Staff only</h2>
      <p>
        You need to be signed in as shelter staff to {doing}.{" "}
        <a href={`/staff/sign-in?next=${next}`} className={linkClass}>
          Sign in as staff
        </a>
      </p>
    </div>
  );
}

/** A staff page as a visitor not signed in as staff sees it: the page's introduction, then the offer to sign in. */
export function StaffOnlyPage({ intro, next, doing }: { intro: React.ReactNode; next: string; doing: string }) {
  return (
    <div className="space-y-6">
      {intro}
      <StaffOnly next={next} doing={doing} />
    </div>
  );
}
