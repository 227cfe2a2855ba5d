import type { Prisma } from "@/lib/generated/prisma/client";
import { forbidden } from "@/lib/organizations/tenancy";
import { mayReadPeopleOf, type Viewer } from "@/lib/visibility/policy";

// The few reads and writes of the people table the foster's page and the
// foster applications need. They belong to lib/people's queries once its
// service lands (they are here so that two branches built at once merge).

/** A person of the organisation, locked for a change (null: no such person there, or erased). */
export async function lockPersonOf(
  tx: Prisma.TransactionClient,
  organizationId: number,
  personId: number,
): Promise<{ id: bigint; email: string | null; fosterStatus: string | null } | null> {
  const [row] = await tx.$queryRaw<{ id: bigint; email: string | null; foster_status: string | null }[]>`
    SELECT id, email, foster_status::text FROM people
     WHERE id = ${BigInt(personId)} AND organization_id = ${BigInt(organizationId)} AND erased_at IS NULL FOR UPDATE`;
  return row ? { id: row.id, email: row.email, fosterStatus: row.foster_status } : null;
}

/** The person an email names in the organisation (case-insensitively, as the unique index compares), locked. */
export async function lockPersonByEmail(
  tx: Prisma.TransactionClient,
  organizationId: number,
  email: string,
): Promise<{ id: bigint; fosterStatus: string | null } | null> {
  const [row] = await tx.$queryRaw<{ id: bigint; foster_status: string | null }[]>`
    SELECT id, foster_status::text FROM people WHERE organization_id = ${BigInt(organizationId)} AND lower(email) = ${email.toLowerCase()} FOR UPDATE`;
  return row ? { id: row.id, fosterStatus: row.foster_status } : null;
}

/** Every reader of people's data asks the one policy (lib/visibility/policy.ts), as lib/people's readers do. */
export function assertMayReadPeople(viewer: Viewer, organizationId: number): void {
  if (!mayReadPeopleOf(viewer, organizationId)) throw forbidden("The organisation's people are personal data: reading them needs people:read, as its staff.");
}
