/**
 * The error line under one control. Always in the page (empty when there is
 * nothing to say) so that it is a live region before its text arrives:
 * screen readers announce a message the moment it appears, and the control
 * points at it with aria-describedby.
 */
export function FieldError({ id, label, message }: { id: string; label: string; message?: string }) {
  return (
    <p id={id} role="alert" className="mt-1 text-sm font-medium text-red-700 empty:hidden">
      {message ? sentence(label, message) : null}
    </p>
  );
}

/**
 * The schemas' issues are predicates ("must not be blank", "is required",
 * as the API's details say them): the field's name makes them a sentence.
 * Anything else ("the enterprise plan needs...") only needs a capital.
 */
const PREDICATE = /^(must|is|are|needs|does|has|should|cannot|can)\b/;

function sentence(label: string, issue: string): string {
  const text = PREDICATE.test(issue) ? `${label} ${issue}` : issue.charAt(0).toUpperCase() + issue.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
