import { BackToBrowseLink } from "@/components/pets/back-to-browse-link";
import { Picture } from "@/components/pets/pet-picture";

// An alert link that names nothing now: deleted, unsubscribed from an email,
// never confirmed within 7 days, or mistyped.
export default function AlertNotFound() {
  return (
    <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
      <Picture name="paw" className="mx-auto h-32 w-44 rounded-2xl" />
      <h1 className="text-3xl font-bold text-stone-900">This alert no longer exists</h1>
      <p className="text-stone-700">
        It was deleted, unsubscribed from an email, or never confirmed within 7 days: no emails are sent for it. You can create another from the browse
        page with <strong>Email me new matches</strong>.
      </p>
      <BackToBrowseLink />
    </div>
  );
}
