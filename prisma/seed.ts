/**
 * Demo data: the categories every install needs and a shelter's worth of
 * animals. Idempotent: categories are upserted by name, and animals are only
 * added to a database that has none, so re-running never duplicates them.
 */
import { db, disconnectDb } from "@/lib/db";
import type { PetStatus } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { DEMO_STAFF, demoLoginActive } from "@/lib/staff/demo";
import { createStaff } from "@/lib/staff/service";

export { DEMO_STAFF };

export const CATEGORIES = ["Dogs", "Cats", "Rabbits", "Birds", "Reptiles", "Small mammals"] as const;

const NAMES: Record<(typeof CATEGORIES)[number], string[]> = {
  Dogs: ["Biscuit", "Luna", "Max", "Pepper", "Rosie", "Duke", "Maple", "Otis", "Juniper", "Bruno", "Zoë", "Scout"],
  Cats: ["Mittens", "Shadow", "Cleo", "Oliver", "Nala", "Tigger", "Pumpkin", "Salem", "Willow", "Gizmo", "Mochi", "Sir Whiskers"],
  Rabbits: ["Thumper", "Clover", "Hazel", "Bun Bun", "Cinnamon", "Pippin", "Marshmallow", "Dandelion", "Nibbles", "Flopsy"],
  Birds: ["Kiwi", "Sunny", "Mango", "Blue", "Pip", "Rio", "Tweety", "Jasper", "Lemon", "Echo"],
  Reptiles: ["Spike", "Ziggy", "Rex", "Sheldon", "Iggy", "Medusa", "Nagini", "Gecko Joe", "Basil", "Pebbles"],
  "Small mammals": ["Peanut", "Squeak", "Hamlet", "Nutmeg", "Button", "Chewie", "Pip-squeak", "Whiskers", "Truffle", "Fidget"],
};

// A shelter has more animals waiting than spoken for: roughly 60% available,
// 25% pending, 15% sold, interleaved so every page of the list shows a mix.
const STATUS_CYCLE: PetStatus[] = ["available", "available", "pending", "available", "sold", "available", "pending", "available"];

export async function seed(): Promise<{ categories: number; petsAdded: number; demoLogin: boolean }> {
  const prisma = db();
  // Only where a published login is harmless (SEED_DEMO_STAFF: the embedded
  // database, development, demo deployments). Created once; never reset, so
  // an operator who changed its password keeps it.
  if (env().SEED_DEMO_STAFF) {
    const exists = await prisma.staffUser.findUnique({ where: { email: DEMO_STAFF.email }, select: { id: true } });
    if (!exists) await createStaff(DEMO_STAFF);
  }
  const demoLogin = await demoLoginActive();

  const categoryIds = new Map<string, bigint>();
  for (const name of CATEGORIES) {
    const category = await prisma.category.upsert({ where: { name }, create: { name }, update: {}, select: { id: true } });
    categoryIds.set(name, category.id);
  }

  if ((await prisma.pet.count()) > 0) return { categories: CATEGORIES.length, petsAdded: 0, demoLogin };

  // Round-robin over the categories so the newest animals are not all dogs.
  const rows: { name: string; categoryId: bigint; status: PetStatus }[] = [];
  const longest = Math.max(...Object.values(NAMES).map((n) => n.length));
  for (let i = 0; i < longest; i++) {
    for (const category of CATEGORIES) {
      const name = NAMES[category][i];
      if (!name) continue;
      rows.push({ name, categoryId: categoryIds.get(category)!, status: STATUS_CYCLE[rows.length % STATUS_CYCLE.length]! });
    }
  }
  await prisma.pet.createMany({ data: rows });
  return { categories: CATEGORIES.length, petsAdded: rows.length, demoLogin };
}

if (process.argv[1]?.endsWith("seed.ts")) {
  seed()
    .then(({ categories, petsAdded, demoLogin }) => {
      console.error(`[petstore] Seed: ${categories} categories, ${petsAdded} animals added.`);
      if (demoLogin && env().SEED_DEMO_STAFF) {
        console.error(`[petstore] Demo staff login: ${DEMO_STAFF.email} / ${DEMO_STAFF.password}  (sign in at /staff/sign-in)`);
      } else if (demoLogin) {
        console.error(
          `[petstore] WARNING: ${DEMO_STAFF.email} still has the published demo password. Change it (npm run cli -- staff set-password --email ${DEMO_STAFF.email}) or delete it (npm run cli -- staff delete --email ${DEMO_STAFF.email}).`,
        );
      }
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => disconnectDb());
}
