import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AuditAction } from "@/lib/audit/schemas";

// Data access for the audit trail: insert and read, nothing else. The table
// refuses UPDATE and DELETE by trigger, so nothing here could rewrite history.

export interface AuditRow {
  id: bigint;
  petId: bigint;
  action: AuditAction;
  version: number;
  actorKind: "api_key" | "staff";
  actorId: bigint;
  actorName: string;
  requestId: string;
  before: Prisma.JsonValue;
  after: Prisma.JsonValue;
  stay?: Prisma.JsonValue;
  placements?: Prisma.JsonValue;
  createdAt: Date;
}

const auditColumns = {
  id: true,
  petId: true,
  action: true,
  version: true,
  actorKind: true,
  actorId: true,
  actorName: true,
  requestId: true,
  before: true,
  after: true,
  stay: true,
  placements: true,
  createdAt: true,
} as const;

export async function insertAuditRecord(
  tx: Prisma.TransactionClient,
  record: Omit<AuditRow, "id" | "createdAt" | "before" | "after" | "stay" | "placements"> & {
    before: Prisma.InputJsonObject | null;
    after: Prisma.InputJsonObject;
    stay?: Prisma.InputJsonObject;
    placements?: Prisma.InputJsonArray;
  },
): Promise<void> {
  await tx.petAudit.create({
    data: { ...record, before: record.before ?? undefined },
    select: { id: true },
  });
}

/** An API key's name, read inside the writing transaction so the record keeps the name it had then. */
export async function apiKeyName(tx: Prisma.TransactionClient, id: number): Promise<string | null> {
  return (await tx.apiKey.findUnique({ where: { id: BigInt(id) }, select: { name: true } }))?.name ?? null;
}

/** One animal's records, newest first, older than `beforeId` when given. */
export async function findAuditPage(petId: number, page: { beforeId?: number; take: number }): Promise<AuditRow[]> {
  return db().petAudit.findMany({
    where: { petId: BigInt(petId), ...(page.beforeId !== undefined ? { id: { lt: BigInt(page.beforeId) } } : {}) },
    orderBy: { id: "desc" },
    take: page.take,
    select: auditColumns,
  }) as Promise<AuditRow[]>;
}
