// The shapes of the placements API as the staff pages read them: stand-ins
// until lib/placements/schemas.ts arrives on this branch, then its types.

export interface Placement {
  id: number;
  personId: number | null;
  stayId: number;
  startAt: string;
  endAt: string | null;
  endReason: string | null;
  expectedEndOn: string | null;
  note: string | null;
  capacityOverridden: boolean;
}

export type Custody =
  | { kind: "shelter" }
  | { kind: "foster"; placementId: number; personId: number | null; personName: string | null; since: string; expectedEndOn: string | null; overdue: boolean };

export interface CustodyEntry {
  petId: number;
  name: string;
  categoryId: number;
  custody: Custody;
}
