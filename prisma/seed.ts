/**
 * Demo data: the categories every install needs and a shelter's worth of
 * animals. Idempotent: categories are upserted by name, and animals are only
 * added to a database that has none, so re-running never duplicates them.
 */
import { db, disconnectDb } from "@/lib/db";
import type { PetStatus } from "@/lib/generated/prisma/client";
import { verifyPassword } from "@/lib/staff/password";
import { createStaff } from "@/lib/staff/service";

/** The demo shelter desk login, printed on every start while it still has its demo password. */
export const DEMO_STAFF = { email: "demo@petstore.test", password: "adopt-a-pet-demo" } as const;

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
  // Created once; never reset, so an operator who changed its password keeps it.
  const demo = await prisma.staffUser.findUnique({ where: { email: DEMO_STAFF.email }, select: { passwordHash: true } });
  if (!demo) await createStaff(DEMO_STAFF);
  const demoLogin = !demo || (await verifyPassword(DEMO_STAFF.password, demo.passwordHash));

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
      if (demoLogin) {
        console.error(`[petstore] Demo staff login: ${DEMO_STAFF.email} / ${DEMO_STAFF.password}  (sign in at /staff/sign-in)`);
      }
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => disconnectDb());
}
