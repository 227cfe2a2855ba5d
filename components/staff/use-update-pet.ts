"use client";

import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { petQueryKey } from "@/components/pets/use-pet";
import { petHistoryQueryKey } from "@/components/staff/use-pet-history";
import { callApi } from "@/lib/site/api-client-core";
import { DEFAULT_CURRENCY } from "@/lib/pets/adoption-fee";
import type { Pet, PetPatch } from "@/lib/pets/schemas/pet";

export interface PetUpdate {
  id: number;
  /** The version the form was filled from: sent as If-Match, so a change made meanwhile is not overwritten. */
  version: number;
  changes: PetPatch;
}

/** The animal as the server will make it after `changes` (shown at once; the server's answer then replaces it). */
function applyPatch(pet: Pet, changes: PetPatch): Pet {
  const { goodWith, adoptionFee, photoOrder, ...fields } = changes;
  const next: Pet = { ...pet, ...fields };
  if (goodWith !== undefined) next.goodWith = goodWith === null ? { children: null, dogs: null, cats: null } : { ...pet.goodWith, ...goodWith };
  if (adoptionFee !== undefined) {
    // A merge, as the server makes it (lib/pets/service.ts mergedFee).
    const amountCents = adoptionFee?.amountCents ?? pet.adoptionFee?.amountCents;
    next.adoptionFee =
      adoptionFee === null || amountCents === undefined
        ? null
        : {
            amountCents,
            currency: adoptionFee.currency ?? pet.adoptionFee?.currency ?? DEFAULT_CURRENCY,
            waived: adoptionFee.waived ?? pet.adoptionFee?.waived ?? false,
          };
  }
  if (photoOrder) {
    const byId = new Map(pet.photos.map((p) => [p.id, p]));
    if (photoOrder.every((id) => byId.has(id))) next.photos = photoOrder.map((id) => byId.get(id)!);
  }
  return next;
}

type Snapshot = { pet: Pet | null | undefined };

// The browse page keeps its lists in a react-query client of its own
// (components/pets/browse-later.ts), so the staff pages' cache holds no list
// of animals to update: only the animal's own query.
function applyToCache(client: QueryClient, id: number, change: (pet: Pet) => Pet): void {
  client.setQueryData<Pet | null>(petQueryKey(id), (pet) => (pet ? change(pet) : pet));
}

/**
 * PATCH an animal, optimistically: the page shows the change at once, and goes back to what it was if the
 * server refuses it. A 412 (someone else changed it) also refetches the
 * animal, so the current values replace the stale ones.
 */
export function useUpdatePet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, version, changes }: PetUpdate) =>
      (
        await callApi((api) =>
          api.PATCH("/pets/{petId}", {
            params: { path: { petId: id }, header: { "If-Match": `"${version}"` } },
            body: changes,
            headers: { "Content-Type": "application/merge-patch+json" },
          }),
        )
      ).data,
    onMutate: async ({ id, changes }): Promise<Snapshot> => {
      // In-flight reads would overwrite the optimistic values with old ones.
      await client.cancelQueries({ queryKey: petQueryKey(id) });
      const snapshot: Snapshot = { pet: client.getQueryData<Pet | null>(petQueryKey(id)) };
      applyToCache(client, id, (pet) => applyPatch(pet, changes));
      return snapshot;
    },
    onError: (_error, { id }, snapshot) => {
      if (!snapshot) return;
      client.setQueryData(petQueryKey(id), snapshot.pet);
    },
    onSuccess: (pet) => applyToCache(client, pet.id, () => pet),
    onSettled: async (_pet, error, { id }) => {
      void client.invalidateQueries({ queryKey: petHistoryQueryKey(id) });
      if (error) await client.invalidateQueries({ queryKey: petQueryKey(id) });
    },
  });
}
