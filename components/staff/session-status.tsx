import { FormAlert } from "@/components/staff/form-alert";
import { describeError } from "@/lib/site/api-client";

/** While the session is being looked up, or when that failed. */
export function SessionStatus({ error }: { error: unknown }) {
  if (error) return <FormAlert>Could not check whether you are signed in. {describeError(error)}</FormAlert>;
  return (
    <p role="status" className="text-stone-700">
      Checking your session…
    </p>
  );
}
