// The shapes of the people and placements API as the staff pages read them.
// Stand-ins until lib/people/schemas.ts and lib/placements/schemas.ts arrive
// on this branch (issue 50's API helpers), then replaced by their types.

export const FOSTER_STATUSES = ["applicant", "active", "paused", "inactive", "doNotPlace"] as const;
export type FosterStatus = (typeof FOSTER_STATUSES)[number];
export const FOSTER_SPECIES = ["dog", "cat", "other"] as const;
export type FosterSpecies = (typeof FOSTER_SPECIES)[number];

export interface Blackout {
  from: string;
  to: string;
}

export interface Foster {
  status: FosterStatus;
  capacity: number;
  species: FosterSpecies[];
  blackouts: Blackout[];
  placedCount: number;
  room: number;
}

export interface Address {
  street?: string | null;
  city: string;
  region?: string | null;
  postcode?: string | null;
  country: string;
}

export interface Person {
  id: number;
  organizationId: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  address: Address | null;
  notes: string | null;
  erased: boolean;
  foster: Foster | null;
  createdAt: string;
  updatedAt: string;
}

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
