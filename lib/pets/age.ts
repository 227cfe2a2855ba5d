// Age groups, computed from a birth date against a day (UTC), exactly as the
// SQL function pet_age_group does (migration 20261124100000; a test holds the
// two equal across leap days and month ends): under 1 year baby, under 3
// young, under 8 adult, else senior.

export const AGE_GROUPS = ["baby", "young", "adult", "senior"] as const;
export type AgeGroup = (typeof AGE_GROUPS)[number];

/** The years at which an animal leaves each group but the last. */
export const AGE_BOUNDARIES = { baby: 1, young: 3, adult: 8 } as const;

/** A calendar day as "YYYY-MM-DD" (UTC). */
export type IsoDate = string;

export function isoDay(date: Date): IsoDate {
  return date.toISOString().slice(0, 10);
}

/**
 * The day `years` years before `day`, as PostgreSQL's `day - interval 'N
 * years'` gives it: the same month and day, or the month's last day when
 * that day does not exist (29 February in a common year becomes the 28th).
 */
export function yearsBefore(day: IsoDate, years: number): IsoDate {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const year = y - years;
  const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(Math.min(d, lastDay)).padStart(2, "0")}`;
}

/** The last birth date of each group's older side: born on or before cutoff(N), an animal is at least N years old on `day`. */
export function ageCutoffs(day: IsoDate): { 1: IsoDate; 3: IsoDate; 8: IsoDate } {
  return { 1: yearsBefore(day, 1), 3: yearsBefore(day, 3), 8: yearsBefore(day, 8) };
}

export function ageGroupOf(birthDate: IsoDate | null, day: IsoDate): AgeGroup | null {
  if (birthDate === null) return null;
  const c = ageCutoffs(day);
  // ISO dates compare as strings.
  if (birthDate > c[1]) return "baby";
  if (birthDate > c[3]) return "young";
  if (birthDate > c[8]) return "adult";
  return "senior";
}

/**
 * The birth dates of a group on `day`, as a half-open range: born after
 * `after` (exclusive) and on or before `through` (inclusive); either may be
 * open. What the list's age filter compares birth_date with.
 */
export function birthRangeOf(group: AgeGroup, day: IsoDate): { after?: IsoDate; through?: IsoDate } {
  const c = ageCutoffs(day);
  switch (group) {
    case "baby":
      return { after: c[1] };
    case "young":
      return { after: c[3], through: c[1] };
    case "adult":
      return { after: c[8], through: c[3] };
    case "senior":
      return { through: c[8] };
  }
}
