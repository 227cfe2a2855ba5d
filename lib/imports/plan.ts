import type { z } from "zod";
import type { ImportAction, ImportIssue } from "@/lib/imports/schemas";
import { quoteCell } from "@/lib/listings/formats/cells";
import type { ImportedRow } from "@/lib/listings/formats/types";
import { newPetSchema, petPatchSchema, type NewPet, type Pet, type PetPatch } from "@/lib/pets/schemas/pet";

// What one row of a file does to the organisation's animals: the same
// decision for a real import and a dry run (which stops here), so the dry
// run reports exactly what the real one does. Nothing here writes.

export interface PlannedRow {
  row: ImportedRow;
  action: ImportAction;
  /** The animal it matched; null for a new one (until created) or a rejected row. */
  petId: number | null;
  create?: NewPet;
  /** For an update: only the fields that differ, in the patch's words. */
  patch?: PetPatch;
  issues: ImportIssue[];
}

/** Equal as JSON, whatever the order of object keys. */
function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y)))
      : v,
  );
}

function zodIssues(line: number, error: z.ZodError): ImportIssue[] {
  return error.issues.map((issue) => ({ line, field: issue.path.length ? issue.path.join(".") : null, message: issue.message, result: "refused" as const }));
}

/** The row's own errors (what its reader found), as the report's refusals. */
export function refusals(row: ImportedRow): ImportIssue[] {
  return row.errors.map((e) => ({ line: e.line, field: e.field, message: e.message, result: "refused" as const }));
}

export function rejected(row: ImportedRow, issues: ImportIssue[], petId: number | null = null): PlannedRow {
  return { row, action: "reject", petId, issues };
}

/**
 * The row's fields in our words, validated as an API patch would be: what
 * the file says, nothing more (a column the file lacks is left alone).
 */
export function wanted(row: ImportedRow, existing: boolean): { ok: true; fields: PetPatch } | { ok: false; issues: ImportIssue[] } {
  const fields: Record<string, unknown> = { ...row.fields };
  // The sites' own colour names may hold commas ("Tricolor (Brown, Black, & White)"),
  // which our colours cannot (a comma separates them in filters): kept, as slashes.
  if (row.fields.colors) fields.colors = row.fields.colors.map((c) => c.replace(/\s*,\s*(?:&\s*)?/g, " / "));
  if (row.statusAction === "adopted" || (row.statusAction === "delete" && existing)) fields.status = "sold";
  const parsed = petPatchSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, issues: zodIssues(row.line, parsed.error) };
  return { ok: true, fields: parsed.data };
}

/** The fields of `fields` whose value differs from the animal's (goodWith and the fee by their parts). */
export function differences(fields: PetPatch, pet: Pet): PetPatch | null {
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (field === "goodWith" && value) {
      const parts = Object.entries(value as Record<string, boolean | null | undefined>).filter(
        ([k, v]) => v !== undefined && pet.goodWith[k as keyof Pet["goodWith"]] !== v,
      );
      if (parts.length) patch.goodWith = Object.fromEntries(parts);
    } else if (field === "adoptionFee" && value) {
      const fee = pet.adoptionFee as Record<string, unknown> | null;
      if (!fee || Object.entries(value as Record<string, unknown>).some(([k, v]) => v !== undefined && !same(fee[k], v))) patch.adoptionFee = value;
    } else if (!same(value, (pet as Record<string, unknown>)[field])) {
      patch[field] = value;
    }
  }
  return Object.keys(patch).length ? (patch as PetPatch) : null;
}

/**
 * One row's fate. `existing` holds the organisation's animals by externalId;
 * `seen` the externalIds of earlier rows of the same file (with their line),
 * so an id given twice is refused the second time.
 */
export function planRow(row: ImportedRow, existing: ReadonlyMap<string, Pet>, seen: Map<string, number>): PlannedRow {
  if (row.errors.length) return rejected(row, refusals(row));
  if (row.externalId !== null) {
    const earlier = seen.get(row.externalId);
    if (earlier !== undefined)
      return rejected(row, [
        {
          line: row.line,
          field: null,
          message: `has the ID ${quoteCell(row.externalId)}, which line ${earlier} already has: each animal once per file`,
          result: "refused",
        },
      ]);
    seen.set(row.externalId, row.line);
  }
  const pet = row.externalId === null ? undefined : existing.get(row.externalId);
  if (!pet && row.statusAction === "delete") return { row, action: "unchanged", petId: null, issues: [] };
  const fields = wanted(row, pet !== undefined);
  if (!fields.ok) return rejected(row, fields.issues, pet?.id ?? null);
  if (pet) {
    const patch = differences(fields.fields, pet);
    return patch ? { row, action: "update", petId: pet.id, patch, issues: [] } : { row, action: "unchanged", petId: pet.id, issues: [] };
  }
  const created = newPetSchema.safeParse({ ...fields.fields, externalId: row.externalId });
  if (!created.success) return rejected(row, zodIssues(row.line, created.error));
  return { row, action: "create", petId: null, create: created.data, issues: [] };
}
