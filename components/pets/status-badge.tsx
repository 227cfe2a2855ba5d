import type { PetStatus } from "@/lib/pets/schemas/fields";
import { useTranslations } from "next-intl";

// Each status has its own colour, its own mark (dot, diamond, square) and
// always its word: colour is never the only signal. Text on background is AA.
const STYLES: Record<PetStatus, { badge: string; mark: string }> = {
  available: { badge: "border-emerald-300 bg-emerald-50 text-emerald-900", mark: "rounded-full bg-emerald-600" },
  pending: { badge: "border-amber-300 bg-amber-50 text-amber-900", mark: "rotate-45 bg-amber-500" },
  sold: { badge: "border-rose-300 bg-rose-50 text-rose-900", mark: "bg-rose-600" },
};

export function StatusBadge({ status, size = "sm" }: { status: PetStatus; size?: "sm" | "lg" }) {
  const style = STYLES[status];
  const words = useTranslations("Words");
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full border font-semibold ${style.badge} ${
        size === "lg" ? "px-3 py-1 text-base" : "px-2.5 py-0.5 text-sm"
      }`}
    >
      <span aria-hidden="true" className={`size-2 shrink-0 ${style.mark}`} />
      {words(`status.${status}`)}
    </span>
  );
}
