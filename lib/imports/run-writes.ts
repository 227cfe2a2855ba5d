import type { Actor } from "@/lib/audit/schemas";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { planAnimal, type FileStay } from "@/lib/imports/history";
import { keptRows, reject, rejectPlan, type HistoryMode, type Plan, type State } from "@/lib/imports/run-state";
import { findStaysOf, insertStays, isStayConflict, updateStays } from "@/lib/imports/stays";
import { quoteCell } from "@/lib/listings/formats/cells";
import { presentPet } from "@/lib/pets/present";
import { createPetsWithRecords, isExternalIdTaken, type PetToCreate } from "@/lib/pets/queries/writes";
import { changeWithStays, updatePet } from "@/lib/pets/service";

// What a chunk of an import writes (lib/imports/run.ts): its new animals in
// one statement with their stays, and its known animals' changes one by one,
// each through the animals' one write path.

const auditActor = (actor: Actor) => ({ kind: actor.kind, id: actor.id, name: actor.kind === "staff" ? actor.email : null });

/**
 * Creates the chunk's new animals in one statement, with their stays, in
 * one transaction; one by one when that fails (an externalId taken
 * meanwhile), so one animal cannot fail the others.
 */
export async function createAll(state: State, plans: Plan[]): Promise<void> {
  const creates = plans.filter((plan) => plan.profile?.action === "create");
  if (!creates.length) return;
  // firstStay null: the import writes every new animal's stays itself (plan.insert), the file's or a default one.
  // Created as the stays leave it (out of care when the last ended other than by adoption): its creation commits, and is announced, in its final state.
  const item = (plan: Plan): PetToCreate => ({
    pet: { ...plan.profile!.create!, organizationId: state.organizationId, firstStay: null, inCare: plan.inCare !== false },
    actor: auditActor(state.context.actor),
    requestId: state.context.requestId,
  });
  const write = (batch: Plan[]) =>
    db().$transaction(
      async (tx) => {
        const rows = await createPetsWithRecords(batch.map(item), tx);
        const stays: { petId: number; stay: FileStay }[] = [];
        batch.forEach((plan, i) => {
          const row = rows[i];
          if (row) stays.push(...plan.insert.map((stay) => ({ petId: Number(row.id), stay })));
        });
        await insertStays(tx, state.organizationId, stays);
        return rows;
      },
      { timeout: 60_000 },
    );
  const take = (plan: Plan, row: { id: bigint } | null) => {
    if (row) for (const p of keptRows(plan)) p.petId = Number(row.id);
    else rejectPlan(plan, "names a category that no longer exists", "species");
  };
  try {
    const rows = await write(creates);
    creates.forEach((plan, i) => take(plan, rows[i]!));
  } catch (error) {
    if (creates.length === 1 && !isExternalIdTaken(error) && !isStayConflict(error)) throw error;
    for (const plan of creates) {
      try {
        take(plan, (await write([plan]))[0]!);
      } catch (one) {
        if (isStayConflict(one)) rejectPlan(plan, "its stays were refused by the database (they overlap, or two are open): send the file again");
        else if (!isExternalIdTaken(one)) throw one;
        else
          rejectPlan(
            plan,
            `${quoteCell(plan.profile!.row.externalId ?? "")} became another animal's ID while the file was imported; import the file again to update it`,
          );
      }
    }
  }
}

/**
 * Known animals. A listing file's row: its profile through updatePet. A
 * history's animal: its stays, care and profile as one change of the animal
 * (changeWithStays: its lock, version, audit record, event), planned again
 * from the animal and its stays as read under the lock, so a change staff
 * made since the chunk was planned is neither overwritten nor undone; what
 * the lock's plan refuses (a status an approved adoption holds) refuses the
 * whole change, and nothing of it is recorded.
 */
export async function updateAll(state: State, plans: Plan[], history: HistoryMode | null, zone: string, at: Date): Promise<void> {
  for (const plan of plans) {
    const profile = plan.profile;
    if (!profile || profile.action === "create" || profile.petId === null) continue;
    const petId = profile.petId;
    if (!history) {
      if (!profile.patch) continue;
      try {
        await updatePet(petId, profile.patch, { ...state.context, view: state.view });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        reject(profile, error.message, error.details?.[0]?.field ?? null);
      }
      continue;
    }
    if (!plan.insert.length && !plan.update.length && plan.inCare === null && !profile.patch) continue;
    const unit = plan.rows.map((p) => p.row);
    try {
      await changeWithStays(
        petId,
        state.context,
        async (tx, was, context) => {
          const recorded = (await findStaysOf([petId], tx)).get(petId)?.stays ?? [];
          const locked = planAnimal(unit, { pet: presentPet(was, state.view), inCare: context.inCare, stays: recorded }, history.columns, zone, at);
          // The report says what the lock's plan did.
          Object.assign(plan, locked);
          if (!locked.profile) return null;
          await updateStays(tx, locked.update, state.organizationId, petId);
          await insertStays(
            tx,
            state.organizationId,
            locked.insert.map((stay) => ({ petId, stay })),
          );
          return { patch: locked.profile.patch ?? null, inCare: locked.inCare, wroteStays: locked.insert.length + locked.update.length > 0 };
        },
        state.leavingCare,
      );
    } catch (error) {
      if (isStayConflict(error)) {
        rejectPlan(plan, "the animal's stays changed while the file was imported, and the file's now overlap them: send the file again");
        continue;
      }
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      rejectPlan(plan, error.message, error.details?.[0]?.field ?? null);
    }
  }
}
