import { matchBreed } from "@/lib/listings/vocabulary/breeds";
import { isCoatLength } from "@/lib/listings/vocabulary/coat-lengths";
import { type CoatLength } from "@/lib/pets/profile";
import type { ListedKind } from "@/lib/listings/vocabulary/kinds";
import { normalizeName } from "@/lib/listings/vocabulary/normalize";
import { AGE_WORDS, htmlToText, isHttpUrl, isVideoUrl, quoteCell, readAgeGroup, readBoolean, readDate, readSex, readSize } from "@/lib/listings/formats/cells";
import type { Column, ReadState } from "@/lib/listings/formats/row";
import type { ListingFields } from "@/lib/listings/formats/types";

// The columns the formats share, each a pair of directions over one field,
// and the cell readers the generic format uses with the same words.

type FlagField = "spayedNeutered" | "houseTrained" | "declawed" | "shotsCurrent" | "specialNeeds" | "mixedBreed";

export function readFlagCell(name: string, cell: string, s: ReadState, set: (value: boolean | null) => void): void {
  const value = readBoolean(cell);
  if (value === undefined) s.error(name, `${quoteCell(cell)} is not yes or no`);
  else set(value);
}

export function flagColumn(name: string, field: FlagField, write: (value: boolean | null) => string): Column {
  return { name, write: (s) => write(s.animal[field]), read: (cell, s) => readFlagCell(name, cell, s, (v) => (s.fields[field] = v)) };
}

/** Good with children/dogs/cats; Petfinder's NoDogs says it the other way round (`negated`). */
export function goodWithColumn(name: string, kind: keyof ListingFields["goodWith"], write: (value: boolean | null) => string, negated = false): Column {
  const flip = (v: boolean | null) => (negated && v !== null ? !v : v);
  return {
    name,
    write: (s) => write(flip(s.animal.goodWith[kind])),
    read: (cell, s) => readFlagCell(name, cell, s, (v) => (s.fields.goodWith = { ...s.fields.goodWith, [kind]: flip(v) })),
  };
}

export function readBreedCell(name: string, cell: string, s: ReadState, field: "breed" | "secondaryBreed"): void {
  if (!cell) {
    s.fields[field] = null;
    return;
  }
  const matched = matchBreed(s.kind, cell);
  s.fields[field] = matched.name;
  if (matched.mixed) s.mixedHint = true;
  if (!matched.known) s.warn(name, `${quoteCell(cell)} is not a breed the listing sites know: kept as written`);
}

export function breedColumn(name: string, which: "primary" | "secondary"): Column {
  return { name, write: (s) => s.breeds[which], read: (cell, s) => readBreedCell(name, cell, s, which === "primary" ? "breed" : "secondaryBreed") };
}

/** A description: plain text to the site's HTML-ish text and back. */
export function textColumn(name: string, field: "description" | "specialNeedsNotes", write: (text: string) => string): Column {
  return {
    name,
    write: (s) => (s.animal[field] === null ? "" : write(s.animal[field])),
    read: (cell, s) => {
      s.fields[field] = htmlToText(cell) || null;
    },
  };
}

/**
 * A photo column: an address to fetch, or on a site that takes files, the
 * name of a file uploaded beside the CSV (which an import cannot fetch: a
 * warning). A YouTube or Vimeo address in a photo column is the video
 * (Petfinder's photo6, as ASM3 sends it).
 */
export function readPhotoCell(name: string, cell: string, s: ReadState): void {
  if (!cell) return;
  if (isVideoUrl(cell)) {
    if (s.fields.videoUrl) s.warn(name, "is a second video: left out");
    else s.fields.videoUrl = cell;
  } else if (isHttpUrl(cell)) s.row.photoUrls.push(cell);
  else s.warn(name, `${quoteCell(cell)} names a file on the site's server, not an address: the import cannot fetch it`);
}

/** What a status word in a file means: one of ours, or that the animal should go. */
export type FileStatus = "available" | "pending" | "sold" | "delete";

/** A status word, looked up ignoring case and spacing; sold is also the "adopted" action. `notes` warn about loose readings. */
export function readStatusCell(
  name: string,
  cell: string,
  s: ReadState,
  words: Readonly<Record<string, FileStatus>>,
  expected: string,
  notes: Readonly<Record<string, string>> = {},
): void {
  if (!cell) return;
  const key = normalizeName(cell);
  const status = words[key];
  if (!status) return s.error(name, `${quoteCell(cell)} is not ${expected}`);
  if (notes[key]) s.warn(name, notes[key]);
  if (status === "delete") s.row.statusAction = "delete";
  else {
    s.fields.status = status;
    if (status === "sold") s.row.statusAction = "adopted";
  }
}

export function statusColumn(
  name: string,
  write: Column["write"],
  words: Readonly<Record<string, FileStatus>>,
  expected: string,
  notes?: Readonly<Record<string, string>>,
): Column {
  return { name, write, read: (cell, s) => readStatusCell(name, cell, s, words, expected, notes) };
}

export function readSexCell(name: string, cell: string, s: ReadState, expected: string): void {
  const sex = readSex(cell);
  if (sex === undefined) s.error(name, `${quoteCell(cell)} is not ${expected}`);
  else s.fields.sex = sex;
}

/** Female and male in the site's words, nothing for unknown. */
export function sexColumn(name: string, [female, male]: [string, string], warnUnknown?: string): Column {
  return {
    name,
    write: (s) => {
      if (s.animal.sex === "unknown" && warnUnknown) s.warn("sex", warnUnknown);
      return s.animal.sex === "female" ? female : s.animal.sex === "male" ? male : "";
    },
    read: (cell, s) => readSexCell(name, cell, s, `${male} or ${female}`),
  };
}

export function readSizeCell(name: string, cell: string, s: ReadState, expected: string): void {
  const size = readSize(cell);
  if (size === undefined) s.error(name, `${quoteCell(cell)} is not ${expected}`);
  else s.fields.size = size;
}

/** Size as S, M, L, XL; `carried(kind)` when the site takes sizes of some kinds only (an empty cell says nothing about the others). */
export function sizeColumn(name: string, write: Column["write"], carried: (kind: ListedKind | null) => boolean = () => true): Column {
  return {
    name,
    write,
    read: (cell, s) => {
      if (cell || carried(s.kind)) readSizeCell(name, cell, s, "S, M, L or XL");
    },
  };
}

export function readAgeCell(name: string, cell: string, s: ReadState, expected: string): void {
  const age = readAgeGroup(cell);
  if (age === undefined) s.warn(name, `${quoteCell(cell)} is not ${expected}: left out`);
  else s.row.ageGroup = age;
}

export function ageColumn(name: string): Column {
  return {
    name,
    write: (s) => (s.animal.ageGroup ? AGE_WORDS[s.animal.ageGroup] : ""),
    read: (cell, s) => readAgeCell(name, cell, s, "Baby, Young, Adult or Senior"),
  };
}

export function readCoatCell(name: string, cell: string, s: ReadState, expected: string): void {
  const coat = cell.toLowerCase();
  if (coat === "") s.fields.coatLength = null;
  else if (isCoatLength(coat)) s.fields.coatLength = coat;
  else s.warn(name, `${quoteCell(cell)} is not ${expected}: left out`);
}

/**
 * The coat, capitalised, where the site has it for the kind (`coats`); a
 * kind with none (Adopt-a-Pet's dogs) neither writes nor reads one.
 */
export function coatColumn(name: string, coats: (kind: ListedKind) => readonly CoatLength[], siteName: string): Column {
  return {
    name,
    write: (s) => {
      const coat = s.animal.coatLength;
      const allowed = coats(s.kind);
      if (coat === null || allowed.length === 0) return "";
      if (allowed.includes(coat)) return coat[0]!.toUpperCase() + coat.slice(1);
      s.warn("coatLength", `${coat} is not a coat ${siteName} has for this kind of animal: left out`);
      return "";
    },
    read: (cell, s) => {
      if (cell || s.kind === null || coats(s.kind).length) readCoatCell(name, cell, s, "a coat length");
    },
  };
}

export function readDateCell(name: string, cell: string, s: ReadState, field: "birthDate" | "intakeDate", expected: string): void {
  const date = readDate(cell);
  if (date === undefined) s.error(name, `${quoteCell(cell)} is not a date (${expected})`);
  else s.fields[field] = date;
}
