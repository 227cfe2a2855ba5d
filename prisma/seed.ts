/**
 * Demo data: the categories every install needs and a shelter's worth of
 * animals. Idempotent: categories are upserted by name, and animals are only
 * added to a database that has none, so re-running never duplicates them.
 */
import { now } from "@/lib/clock";
import { db, disconnectDb } from "@/lib/db";
import type { PetCoatLength, PetSex, PetSize, PetStatus, Prisma } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { isoDay } from "@/lib/pets/age";
import { processPhoto } from "@/lib/photos/process";
import * as photoQueries from "@/lib/photos/queries";
import { photoStore } from "@/lib/photos/store";
import { demoPhoto } from "@/lib/pictures/demo-photos";
import { kindOfCategory, variantOf } from "@/lib/pictures/kinds";
import { DEMO_STAFF, demoLoginActive } from "@/lib/staff/demo";
import { createStaff } from "@/lib/staff/service";
import { slugOf } from "@/lib/organizations/service";

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

const BREEDS: Record<(typeof CATEGORIES)[number], (string | null)[]> = {
  Dogs: ["Labrador mix", "Staffordshire bull terrier", "Border collie", null, "Greyhound", "Beagle cross"],
  Cats: ["Domestic shorthair", "Domestic longhair", "Siamese mix", null, "Maine coon cross"],
  Rabbits: ["Netherland dwarf", "Lop", "Rex", null],
  Birds: ["Budgerigar", "Cockatiel", "Lovebird", "Canary"],
  Reptiles: ["Bearded dragon", "Leopard gecko", "Corn snake", "Tortoise"],
  "Small mammals": ["Syrian hamster", "Guinea pig", "Rat", "Gerbil"],
};

const TRAITS = [
  "loves a long walk and a longer nap afterwards",
  "is shy for the first day, then follows you from room to room",
  "greets everyone at the door",
  "likes a quiet corner and a predictable day",
  "plays with anything that rolls",
  "is happiest with someone home most of the day",
];

/** A shelter's notes on an animal, a few lines with their own line breaks (the site keeps them). */
function description(name: string, i: number): string | null {
  if (i % 5 === 4) return null;
  return `${name} ${TRAITS[i % TRAITS.length]}.\n\nCame to us ${1 + (i % 9)} weeks ago${i % 2 ? " with a sibling, who has already found a home" : ""}. Vaccinated, health-checked, and ready to meet you.`;
}

/** Spread over every age group, relative to today, so the groups stay filled as the years pass. */
function birthDate(i: number): Date | null {
  if (i % 7 === 6) return null;
  const days = [120, 300, 500, 800, 1400, 2200, 3100, 4000][i % 8]! + ((i * 17) % 90);
  return new Date(`${isoDay(new Date(now().getTime() - days * 86_400_000))}T00:00:00Z`);
}

// The listing sites' profile (issue 34), as a shelter knows it: mostly
// answered for dogs and cats, less for the others, some left unknown.
const COLOURS: Record<(typeof CATEGORIES)[number], string[][]> = {
  Dogs: [["Black", "White"], ["Brown"], ["Golden"], ["Brindle", "White"], ["Tricolor"]],
  Cats: [["Tabby"], ["Black"], ["Calico"], ["Grey", "White"], ["Orange"]],
  Rabbits: [["White"], ["Brown"], ["Grey"]],
  Birds: [["Green", "Yellow"], ["Blue"], []],
  Reptiles: [["Orange"], ["Green"], []],
  "Small mammals": [["Golden"], ["White", "Brown"], []],
};
const COATS: Record<(typeof CATEGORIES)[number], (PetCoatLength | null)[]> = {
  Dogs: ["short", "medium", "long", "wire", "curly"],
  Cats: ["short", "long", "medium"],
  Rabbits: ["short", "long"],
  Birds: [null],
  Reptiles: [null],
  "Small mammals": ["short", null],
};
/** Usual fees in cents, by category; some waived, a few unknown. */
const FEES: Record<(typeof CATEGORIES)[number], number> = { Dogs: 15000, Cats: 9000, Rabbits: 5000, Birds: 4000, Reptiles: 6000, "Small mammals": 2000 };
const NEEDS = ["Needs a daily thyroid pill.", "Deaf; has learned hand signals.", "Three legs and no idea that is unusual."];
const TAGS = [["Playful", "Loves car rides"], ["Calm", "Lap animal"], [], ["Curious"], [], ["Good on a lead", "Energetic"]];

function listingProfile(category: (typeof CATEGORIES)[number], n: number) {
  const furry = category === "Dogs" || category === "Cats" || category === "Rabbits";
  const fee = n % 6 === 5 ? null : { adoptionFeeCents: FEES[category], adoptionFeeCurrency: "USD", adoptionFeeWaived: n % 13 === 4 };
  return {
    externalId: `PS-${String(n + 1).padStart(4, "0")}`,
    colors: COLOURS[category][n % COLOURS[category].length]!,
    coatLength: COATS[category][n % COATS[category].length]!,
    spayedNeutered: furry ? ANSWERS[(n + 3) % 4]! : null,
    houseTrained: furry ? ([true, true, false, null] as const)[n % 4]! : null,
    declawed: category === "Cats" ? false : null,
    shotsCurrent: category === "Dogs" || category === "Cats" ? ([true, null, true, false] as const)[n % 4]! : null,
    specialNeeds: n % 11 === 5 ? true : n % 3 === 0 ? false : null,
    specialNeedsNotes: n % 11 === 5 ? NEEDS[n % NEEDS.length]! : null,
    ...(fee ?? {}),
    intakeDate: new Date(`${isoDay(new Date(now().getTime() - (3 + ((n * 7) % 120)) * 86_400_000))}T00:00:00Z`),
    tags: TAGS[n % TAGS.length]!,
  };
}

const SEXES: PetSex[] = ["female", "male", "female", "male", "unknown"];
const SIZES: (PetSize | null)[] = ["small", "medium", "large", "small", "xlarge", null, "medium"];
const ANSWERS = [true, false, null, true] as const;

// A shelter has more animals waiting than spoken for: roughly 60% available,
// 25% pending, 15% sold, interleaved so every page of the list shows a mix.
const STATUS_CYCLE: PetStatus[] = ["available", "available", "pending", "available", "sold", "available", "pending", "available"];

/** The name the organisations migration gives the first organisation (the site's). */
export const FIRST_ORGANIZATION = { name: "Petstore", slug: "petstore" } as const;

/**
 * The first organisation: where a one-shelter install's data lives. It
 * exists (the migration made it; an emptied database gets it back), and
 * takes SHELTER_NAME while it still has the migration's name, so an
 * operator's later renaming is never undone.
 */
async function firstOrganization(): Promise<bigint> {
  const prisma = db();
  const name = env().SHELTER_NAME;
  const first = await prisma.organization.findFirst({ orderBy: { id: "asc" }, select: { id: true, name: true, slug: true } });
  if (!first) {
    const created = await prisma.organization.create({
      data: name ? { name, slug: slugOf(name) } : { ...FIRST_ORGANIZATION },
      select: { id: true },
    });
    return created.id;
  }
  if (name && first.name === FIRST_ORGANIZATION.name && first.slug === FIRST_ORGANIZATION.slug) {
    const slugTaken = await prisma.organization.findFirst({ where: { slug: slugOf(name), NOT: { id: first.id } }, select: { id: true } });
    await prisma.organization.update({ where: { id: first.id }, data: { name, ...(slugTaken ? {} : { slug: slugOf(name) }), updatedAt: new Date() } });
  }
  return first.id;
}

/**
 * Shelters in US cities, for a newcomer to try a search near a place
 * (`/?near=60601`: Chicago's, then Evanston's, then Milwaukee's). The first
 * organisation becomes the Chicago one when it has no address yet.
 */
export const DEMO_SHELTERS = [
  {
    name: null,
    street: "233 S Wacker Dr",
    city: "Chicago",
    region: "IL",
    postcode: "60606",
    lat: 41.8789,
    lng: -87.6359,
    phone: "+1 312 555 0100",
    domain: "petstore",
  },
  {
    name: "Evanston Animal Friends",
    street: "2310 Oakton St",
    city: "Evanston",
    region: "IL",
    postcode: "60202",
    lat: 42.0262,
    lng: -87.7089,
    phone: "+1 847 555 0142",
    domain: "evanston-animal-friends",
  },
  {
    name: "Lake Country Humane Society",
    street: "4500 W Wisconsin Ave",
    city: "Milwaukee",
    region: "WI",
    postcode: "53208",
    lat: 43.0389,
    lng: -87.9705,
    phone: "+1 414 555 0175",
    domain: "lake-country-humane",
  },
  {
    name: "Brooklyn Paws Rescue",
    street: "120 Atlantic Ave",
    city: "Brooklyn",
    region: "NY",
    postcode: "11201",
    lat: 40.6906,
    lng: -73.9955,
    phone: "+1 718 555 0128",
    domain: "brooklyn-paws",
  },
  {
    name: "Mile High Animal Haven",
    street: "1241 W Bayaud Ave",
    city: "Denver",
    region: "CO",
    postcode: "80223",
    lat: 39.7149,
    lng: -105.0037,
    phone: "+1 303 555 0163",
    domain: "mile-high-haven",
  },
  {
    name: "Lone Star Pet Rescue",
    street: "1156 W Cesar Chavez St",
    city: "Austin",
    region: "TX",
    postcode: "78703",
    lat: 30.2669,
    lng: -97.7617,
    phone: "+1 512 555 0117",
    domain: "lone-star-pets",
  },
  {
    name: "Emerald City Cat & Dog Rescue",
    street: "1601 Dexter Ave N",
    city: "Seattle",
    region: "WA",
    postcode: "98109",
    lat: 47.6335,
    lng: -122.3435,
    phone: "+1 206 555 0199",
    domain: "emerald-city-rescue",
  },
  {
    name: "Golden Gate Animal Rescue",
    street: "1200 15th St",
    city: "San Francisco",
    region: "CA",
    postcode: "94103",
    lat: 37.7665,
    lng: -122.4139,
    phone: "+1 415 555 0154",
    domain: "golden-gate-rescue",
  },
] as const;

/** The demo shelters' ids, in DEMO_SHELTERS' order (the first is the first organisation, placed in Chicago). */
async function demoShelters(firstId: bigint): Promise<bigint[]> {
  const prisma = db();
  const ids: bigint[] = [];
  for (const shelter of DEMO_SHELTERS) {
    const contact = {
      street: shelter.street,
      city: shelter.city,
      region: shelter.region,
      postcode: shelter.postcode,
      country: "US",
      lat: shelter.lat,
      lng: shelter.lng,
      phone: shelter.phone,
      email: `adopt@${shelter.domain}.example`,
      website: `https://${shelter.domain}.example`,
    };
    if (shelter.name === null) {
      const first = await prisma.organization.findUniqueOrThrow({ where: { id: firstId }, select: { city: true } });
      if (first.city === null) await prisma.organization.update({ where: { id: firstId }, data: contact });
      ids.push(firstId);
      continue;
    }
    const slug = slugOf(shelter.name);
    const row = await prisma.organization.upsert({ where: { slug }, create: { name: shelter.name, slug, ...contact }, update: {}, select: { id: true } });
    ids.push(row.id);
  }
  return ids;
}

export async function seed(): Promise<{ categories: number; petsAdded: number; demoLogin: boolean }> {
  const prisma = db();
  const firstId = await firstOrganization();
  // Only where a published login is harmless (SEED_DEMO_STAFF: the embedded
  // database, development, demo deployments). Created once; never reset, so
  // an operator who changed its password keeps it. Staff of the first organisation.
  if (env().SEED_DEMO_STAFF) {
    const exists = await prisma.staffUser.findUnique({ where: { email: DEMO_STAFF.email }, select: { id: true } });
    if (!exists) await createStaff(DEMO_STAFF, { organizationId: Number(firstId) });
  }
  const demoLogin = await demoLoginActive();

  const categoryIds = new Map<string, bigint>();
  for (const name of CATEGORIES) {
    const category = await prisma.category.upsert({ where: { name }, create: { name }, update: {}, select: { id: true } });
    categoryIds.set(name, category.id);
  }

  if ((await prisma.pet.count()) > 0) return { categories: CATEGORIES.length, petsAdded: 0, demoLogin };
  const shelters = await demoShelters(firstId);

  // Round-robin over the categories so the newest animals are not all dogs.
  const rows: Prisma.PetCreateManyInput[] = [];
  const longest = Math.max(...Object.values(NAMES).map((n) => n.length));
  for (let i = 0; i < longest; i++) {
    for (const category of CATEGORIES) {
      const name = NAMES[category][i];
      if (!name) continue;
      const n = rows.length;
      const breeds = BREEDS[category];
      rows.push({
        name,
        categoryId: categoryIds.get(category)!,
        // Spread over the shelters, so each has animals of every kind and
        // every status (the status cycle is as long as the list of shelters:
        // stepping by one more every round keeps them from lining up).
        organizationId: shelters[(n + Math.floor(n / shelters.length)) % shelters.length]!,
        status: STATUS_CYCLE[n % STATUS_CYCLE.length]!,
        sex: SEXES[n % SEXES.length]!,
        size: SIZES[n % SIZES.length]!,
        birthDate: birthDate(n),
        breed: breeds[n % breeds.length]!,
        description: description(name, n),
        goodWithChildren: ANSWERS[n % 4]!,
        goodWithDogs: category === "Dogs" ? true : ANSWERS[(n + 1) % 4]!,
        goodWithCats: category === "Cats" ? true : ANSWERS[(n + 2) % 4]!,
        ...listingProfile(category, n),
      });
    }
  }
  await prisma.pet.createMany({ data: rows });
  await addDemoPhotos();
  return { categories: CATEGORIES.length, petsAdded: rows.length, demoLogin };
}

/**
 * Photos for most of the demo animals (a few wait for theirs, as new
 * arrivals do): drawn JPEGs run through the real pipeline (decode, resize,
 * WebP variants, the configured store). Like the animals themselves, they
 * are demo data written directly, without audit records or events.
 */
async function addDemoPhotos(): Promise<void> {
  const prisma = db();
  const pets = await prisma.pet.findMany({ select: { id: true, name: true, category: { select: { name: true } } }, orderBy: { id: "asc" } });
  const store = await photoStore();
  for (const [i, pet] of pets.entries()) {
    if (i % 6 === 5) continue;
    const id = Number(pet.id);
    const kind = kindOfCategory(pet.category.name);
    const shots = i % 3 === 0 ? (["landscape", "portrait"] as const) : (["landscape"] as const);
    for (const [position, orientation] of shots.entries()) {
      const processed = await processPhoto(await demoPhoto(kind, variantOf(id + position * 7), { orientation }));
      await prisma.$transaction(async (tx) => {
        for (const v of processed.variants) await store.put(v.key, { bytes: v.bytes, contentType: v.contentType }, tx);
        await photoQueries.insertPhoto(tx, {
          petId: id,
          position,
          alt: position === 0 ? `${pet.name} at the shelter` : `${pet.name}, another day`,
          width: processed.width,
          height: processed.height,
          placeholder: processed.placeholder,
          files: Object.fromEntries(processed.variants.map((v) => [String(v.width), v.key])),
        });
      });
    }
  }
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
