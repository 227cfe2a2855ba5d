import { db } from "@/lib/db";
import { env } from "@/lib/env";

// Personal data kept no longer than needed. Closed applications (declined,
// withdrawn, cancelled) lose everything that identifies the applicant after
// APPLICATION_RETENTION_DAYS; completed ones are the adoption's record and
// keep the adopter's name and contact, but lose the free text. Open
// applications are untouched. The animals' history never held any of it.

/** Returns how many applications were anonymised and how many completed ones lost their free text. */
export async function anonymiseExpiredApplications(now: Date): Promise<{ anonymised: number; trimmed: number }> {
  const cutoff = new Date(now.getTime() - env().APPLICATION_RETENTION_DAYS * 86_400_000);
  const anonymised = await db().$executeRaw`
    UPDATE adoption_applications
       SET name = NULL, email = NULL, phone = NULL, home = NULL, other_animals = NULL, message = NULL, decision_message = NULL, anonymised_at = ${now}
     WHERE state IN ('declined', 'withdrawn', 'cancelled') AND anonymised_at IS NULL AND updated_at < ${cutoff}`;
  const trimmed = await db().$executeRaw`
    UPDATE adoption_applications SET other_animals = NULL, message = NULL, decision_message = NULL
     WHERE state = 'completed' AND updated_at < ${cutoff} AND (message IS NOT NULL OR other_animals IS NOT NULL OR decision_message IS NOT NULL)`;
  return { anonymised, trimmed };
}

/** Everything held about one person (by email, any case), for a subject access request. */
export async function exportApplicant(email: string) {
  const rows = await db().adoptionApplication.findMany({
    where: { email: email.trim().toLowerCase() },
    orderBy: { id: "asc" },
    select: {
      id: true,
      state: true,
      name: true,
      email: true,
      phone: true,
      home: true,
      otherAnimals: true,
      message: true,
      decisionMessage: true,
      consentAt: true,
      createdAt: true,
      updatedAt: true,
      pet: { select: { id: true, name: true } },
      steps: { orderBy: { id: "asc" }, select: { fromState: true, toState: true, at: true, actorKind: true } },
    },
  });
  return {
    email: email.trim().toLowerCase(),
    exportedAt: new Date().toISOString(),
    applications: rows.map((r) => ({
      ...r,
      id: Number(r.id),
      pet: { id: Number(r.pet.id), name: r.pet.name },
      consentAt: r.consentAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      steps: r.steps.map((s) => ({ from: s.fromState, to: s.toState, at: s.at.toISOString(), by: s.actorKind })),
    })),
  };
}

/**
 * Erasure on request: every application of this email loses its personal
 * data now, whatever its state; undecided ones are withdrawn (nobody is left
 * to answer). The animals' status and history are left as they are.
 */
export async function eraseApplicant(email: string, now = new Date()): Promise<number> {
  return db().$transaction(async (tx) => {
    const ids = await tx.$queryRaw<{ id: bigint; state: string }[]>`
      SELECT id, state FROM adoption_applications WHERE lower(email) = ${email.trim().toLowerCase()} FOR UPDATE`;
    for (const { id, state } of ids) {
      if (state === "received" || state === "in_review") {
        await tx.applicationStep.create({
          data: { applicationId: id, fromState: state as "received" | "in_review", toState: "withdrawn", actorKind: "system" },
        });
      }
    }
    return tx.$executeRaw`
      UPDATE adoption_applications
         SET state = CASE WHEN state IN ('received', 'in_review') THEN 'withdrawn'::"ApplicationState" ELSE state END,
             name = NULL, email = NULL, phone = NULL, home = NULL, other_animals = NULL, message = NULL, decision_message = NULL,
             anonymised_at = ${now}, updated_at = ${now}
       WHERE id = ANY(${ids.map((r) => r.id)}::bigint[])`;
  });
}
