import type { Blackout, FosterSpecies, Person } from "@/lib/people/schemas";

export type FosterStatus = NonNullable<Person["foster"]>["status"];

// The foster pages' words for the API's values, in one place.

export const FOSTER_STATUS_LABELS: Record<FosterStatus, string> = {
  applicant: "Applicant",
  active: "Active",
  paused: "Paused",
  inactive: "Inactive",
  doNotPlace: "Do not place",
};

/** A badge's colours per status: green can take animals, amber not now, red never. */
export const FOSTER_STATUS_TONES: Record<FosterStatus, string> = {
  applicant: "border-sky-300 bg-sky-50 text-sky-900",
  active: "border-emerald-300 bg-emerald-50 text-emerald-900",
  paused: "border-amber-300 bg-amber-50 text-amber-950",
  inactive: "border-stone-300 bg-stone-100 text-stone-800",
  doNotPlace: "border-red-300 bg-red-50 text-red-900",
};

export const SPECIES_LABELS: Record<FosterSpecies, string> = { dog: "Dogs", cat: "Cats", other: "Other animals" };

export const speciesText = (species: FosterSpecies[]) => (species.length === 0 ? "Any animal" : species.map((s) => SPECIES_LABELS[s]).join(", "));

/** Today in the browser's calendar, as a date input holds it (YYYY-MM-DD). */
export function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

const dayFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

/** A calendar day (YYYY-MM-DD) as people read it: "Dec 7, 2026". */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** The blackout the day falls in, if any. */
export const blackoutOn = (blackouts: Blackout[], day: string) => blackouts.find((b) => b.from <= day && day <= b.to);

/** Blackouts not yet over, soonest first: what staff plan around. */
export const comingBlackouts = (blackouts: Blackout[], day: string) => blackouts.filter((b) => b.to >= day).sort((a, b) => a.from.localeCompare(b.from));

/**
 * Why a foster cannot take an animal on the day, in the API's order of checks;
 * undefined when they can. `species`, the animal's (by its category), when known.
 */
export function whyNotPlaceable(person: Person, day: string, species?: FosterSpecies): "notActive" | "blackout" | "species" | "full" | undefined {
  const foster = person.foster;
  if (!foster || foster.status !== "active") return "notActive";
  if (blackoutOn(foster.blackouts, day)) return "blackout";
  if (species && foster.species.length > 0 && !foster.species.includes(species)) return "species";
  if (foster.room <= 0) return "full";
  return undefined;
}

/** The API's refusals of a placement, said for staff (the API's own message follows). */
export const PLACEMENT_REFUSALS: Record<string, string> = {
  foster_not_active: "This foster is not active, so cannot take an animal. Change their status on the Fosters page first.",
  foster_in_blackout: "This foster is away (a blackout) on that day.",
  foster_species: "This foster does not take this kind of animal. Change the species they take on the Fosters page first.",
  foster_full: "This foster has no room: every place is taken. Tick “Place even though full” to place the animal anyway.",
  no_open_stay: "The animal is not in care (no open stay): record an intake first.",
};
