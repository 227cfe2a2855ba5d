import { currentTabClass, secondaryButtonClass } from "@/components/staff/styles";

// The three foster pages link to each other, so a coordinator moves between
// who fosters, where the animals are and who applied without the site menu
// (which names only the roster). The page a tab names is marked current.

const TABS = [
  { href: "/staff/fosters", label: "Roster" },
  { href: "/staff/fosters/board", label: "Where animals are" },
  { href: "/staff/fosters/applications", label: "Applications" },
] as const;

export type FosterTab = (typeof TABS)[number]["href"];

export function FosterTabs({ current }: { current: FosterTab }) {
  return (
    <nav aria-label="Foster care" className="flex flex-wrap gap-2">
      {TABS.map((tab) =>
        tab.href === current ? (
          <a key={tab.href} href={tab.href} aria-current="page" className={`${currentTabClass} min-h-11 px-4`}>
            {tab.label}
          </a>
        ) : (
          <a key={tab.href} href={tab.href} className={`${secondaryButtonClass} min-h-11 px-4`}>
            {tab.label}
          </a>
        ),
      )}
    </nav>
  );
}
