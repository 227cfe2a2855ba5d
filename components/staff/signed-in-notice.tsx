import { linkClass, panelClass } from "@/components/staff/styles";

/** Shown on the sign-in page to someone who is already signed in. */
export function SignedInNotice({ email }: { email: string | null }) {
  return (
    <div className={`${panelClass} max-w-md space-y-3`}>
      <p>
        You&apos;re signed in as <strong className="break-all">{email ?? "staff"}</strong>.
      </p>
      <ul className="list-inside list-disc space-y-1">
        <li>
          <a href="/staff" className={linkClass}>
            Dashboard
          </a>
        </li>
        <li>
          <a href="/staff/applications" className={linkClass}>
            Applications
          </a>
        </li>
        <li>
          <a href="/staff/pets/new" className={linkClass}>
            Add an animal
          </a>
        </li>
        <li>
          <a href="/staff/keys" className={linkClass}>
            Manage API keys
          </a>
        </li>
      </ul>
    </div>
  );
}
