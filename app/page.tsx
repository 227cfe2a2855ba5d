import { db } from "@/lib/db";

// Placeholder until the adopters' browser lands: proves the app reads the database.
export const dynamic = "force-dynamic";

export default async function Home() {
  const pets = await db().pet.findMany({
    orderBy: { id: "desc" },
    take: 20,
    select: { id: true, name: true, status: true, category: { select: { name: true } } },
  });
  return (
    <main className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-bold">Petstore</h1>
      <ul className="mt-4 divide-y divide-stone-200">
        {pets.map((pet) => (
          <li key={pet.id.toString()} className="flex justify-between py-2">
            <span>{pet.name}</span>
            <span className="text-stone-600">
              {pet.category.name} · {pet.status}
            </span>
          </li>
        ))}
      </ul>
    </main>
  );
}
