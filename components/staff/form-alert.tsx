import { linkClass } from "@/components/staff/styles";

/**
 * A message about the whole form (the server refused it, the network is
 * down...). role="alert" so that it is announced as soon as it appears.
 */
export function FormAlert({ children, tone = "error" }: { children: React.ReactNode; tone?: "error" | "info" }) {
  const colours = tone === "error" ? "border-red-300 bg-red-50 text-red-900" : "border-sky-300 bg-sky-50 text-sky-950";
  return (
    <div role="alert" className={`rounded-md border px-4 py-3 text-sm ${colours}`}>
      {children}
    </div>
  );
}

export interface FormProblem {
  message: string;
  /** The session is gone or is not staff's: offer the way back in. */
  signIn?: boolean;
}

/** Why a staff form was refused, if it was, with a link to sign in again where that is the cure. */
export function FormProblemAlert({ problem, signInHref }: { problem: FormProblem | null; signInHref: string }) {
  if (!problem) return null;
  return (
    <FormAlert>
      {problem.message}
      {problem.signIn ? (
        <>
          {" "}
          <a href={signInHref} className={linkClass}>
            Sign in as staff
          </a>
        </>
      ) : null}
    </FormAlert>
  );
}
