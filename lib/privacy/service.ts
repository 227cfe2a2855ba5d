import { eraseAlerts, exportAlerts } from "@/lib/alerts/service";
import { eraseApplicant, exportApplicant } from "@/lib/applications/retention";

// A person's data across the service, by email address: what `people export`
// and `people erase` (alias `applicants`) answer access and erasure requests
// with. Applications (lib/applications/retention.ts) and alerts
// (lib/alerts/service.ts) each keep their own rules; this only joins them.

export async function exportPerson(email: string) {
  const [applications, alerts] = await Promise.all([exportApplicant(email), exportAlerts(email)]);
  return { ...applications, alerts };
}

/** Applications anonymised (undecided ones withdrawn), alerts deleted. */
export async function erasePerson(email: string): Promise<{ applications: number; alerts: number }> {
  const applications = await eraseApplicant(email);
  const alerts = await eraseAlerts(email);
  return { applications, alerts };
}
