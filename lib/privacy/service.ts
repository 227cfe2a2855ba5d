import { eraseAlerts, exportAlerts } from "@/lib/alerts/service";
import { eraseApplicant, exportApplicant } from "@/lib/applications/retention";
import { erasePeopleByEmail, exportPeopleByEmail, type PeopleErasure } from "@/lib/people/service";

// A person's data across the service, by email address: what `people export`
// and `people erase` (alias `applicants`) answer access and erasure requests
// with. Applications (lib/applications/retention.ts), alerts
// (lib/alerts/service.ts) and organisations' people records (lib/people:
// fosters) each keep their own rules; this only joins them.

export async function exportPerson(email: string) {
  const [applications, alerts, people] = await Promise.all([exportApplicant(email), exportAlerts(email), exportPeopleByEmail(email)]);
  return { ...applications, alerts, people };
}

/**
 * Applications anonymised (undecided ones withdrawn), alerts deleted, people
 * records erased as DELETE erases them, except one with an animal placed
 * (`people.refused`: erase it once the animal is back).
 */
export async function erasePerson(email: string, now = new Date()): Promise<{ applications: number; alerts: number; people: PeopleErasure }> {
  const applications = await eraseApplicant(email);
  const alerts = await eraseAlerts(email);
  const people = await erasePeopleByEmail(email, now);
  return { applications, alerts, people };
}
