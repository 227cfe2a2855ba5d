import { z } from "zod";
import { matchColor, petfinderColor } from "@/lib/listings/vocabulary/colors";
import { listedKindOf } from "@/lib/listings/vocabulary/kinds";
import { decimalMoney, isHttpUrl, isVideoUrl, quoteCell, readMoney, splitList } from "@/lib/listings/formats/cells";
import {
  readAgeCell,
  readBreedCell,
  readCoatCell,
  readDateCell,
  readFlagCell,
  readSexCell,
  readSizeCell,
  readStatusCell,
  type FileStatus,
} from "@/lib/listings/formats/columns";
import { rfc4180Line } from "@/lib/listings/formats/csv";
import { COAT_LENGTHS } from "@/lib/pets/profile";
import { matchCategory, type NamedCategory } from "@/lib/listings/vocabulary/species";
import { IMPORT_INTAKE_WORDS, IMPORT_OUTCOME_WORDS, ourWord } from "@/lib/listings/vocabulary/stay-types";
import { ListingFileError } from "@/lib/listings/formats/errors";
import { readRow, rowIdOf, type Column, type ReadSpec, type ReadState } from "@/lib/listings/formats/row";
import type { ImportedRow, ListingAnimal, ListingRecord, ReadContext, RowStay, WriteIssue, WrittenRow } from "@/lib/listings/formats/types";

// Any CSV with a header row, read through a mapping chosen by a person: our
// field -> their column. Values are read loosely (yes/no/1/0/true/false,
// M/F/Male/Female, S/M/L/XL or the words, YYYY-MM-DD or M/D/YYYY dates,
// "$1,250.00"), lists split on ";" (or ","). Written back (for the round
// trip, and for a partner who wants a plain file) as RFC 4180 with our own
// words: CRLF, quotes only where needed, line breaks kept in their cell.

const columnName = z.string({ error: "must be a column name (a string)" }).trim().min(1, "must not be blank").max(200, "must be at most 200 characters");
const columnNames = z.union([columnName, z.array(columnName).min(1, "must name at least one column").max(10, "must name at most 10 columns")]);

/** The fields a generic file can fill, in the order a written file has them. */
export const GENERIC_FIELDS = [
  "externalId",
  "name",
  "species",
  "status",
  "sex",
  "size",
  "birthDate",
  "ageGroup",
  "breed",
  "secondaryBreed",
  "mixedBreed",
  "description",
  "goodWithChildren",
  "goodWithDogs",
  "goodWithCats",
  "colors",
  "coatLength",
  "spayedNeutered",
  "houseTrained",
  "declawed",
  "shotsCurrent",
  "specialNeeds",
  "specialNeedsNotes",
  "adoptionFee",
  "adoptionFeeCurrency",
  "adoptionFeeWaived",
  "intakeDate",
  "intakeType",
  "intakeSubtype",
  "outcomeDate",
  "outcomeType",
  "outcomeSubtype",
  "videoUrl",
  "tags",
  "photoUrls",
] as const;
export type GenericField = (typeof GENERIC_FIELDS)[number];
/** The fields a list of columns may fill (each column one item). */
const LIST_FIELDS = new Set<GenericField>(["colors", "tags", "photoUrls"]);

/** The stay columns (issue 42): a file that maps any of them brings each animal's history, one stay a row. */
export const STAY_FIELDS = ["intakeType", "intakeSubtype", "outcomeDate", "outcomeType", "outcomeSubtype"] as const satisfies readonly GenericField[];

const FLAG_WORDS = ["yes", "no"] as const;
/**
 * The fields with a closed vocabulary, and our words for each: what
 * `mapping.values` may translate a file's words into. `null`: any of the
 * categories' names (checked against the database's categories).
 */
export const VALUE_FIELDS = {
  species: null,
  status: ["available", "pending", "adopted"],
  sex: ["female", "male", "unknown"],
  size: ["small", "medium", "large", "xlarge"],
  ageGroup: ["baby", "young", "adult", "senior"],
  coatLength: COAT_LENGTHS,
  intakeType: IMPORT_INTAKE_WORDS,
  outcomeType: IMPORT_OUTCOME_WORDS,
  mixedBreed: FLAG_WORDS,
  goodWithChildren: FLAG_WORDS,
  goodWithDogs: FLAG_WORDS,
  goodWithCats: FLAG_WORDS,
  spayedNeutered: FLAG_WORDS,
  houseTrained: FLAG_WORDS,
  declawed: FLAG_WORDS,
  shotsCurrent: FLAG_WORDS,
  specialNeeds: FLAG_WORDS,
  adoptionFeeWaived: FLAG_WORDS,
} as const satisfies Partial<Record<GenericField, readonly string[] | null>>;
export type ValueField = keyof typeof VALUE_FIELDS;
const VALUE_FIELD_NAMES = Object.keys(VALUE_FIELDS) as ValueField[];
const isValueField = (field: string): field is ValueField => field in VALUE_FIELDS;

/** How a file's word is looked up in `values`: trimmed, case and inner spacing ignored. */
export const valueKey = (word: string) => word.trim().replace(/\s+/g, " ").toLowerCase();

const wordMapSchema = z
  .record(
    z.string().trim().min(1, "must not be blank").max(200, "must be at most 200 characters"),
    z.string().trim().min(1, "must not be blank").max(200, "must be at most 200 characters"),
  )
  .refine((words) => Object.keys(words).length <= 500, "must have at most 500 words");

const valuesSchema = z
  .strictObject(
    Object.fromEntries(VALUE_FIELD_NAMES.map((field) => [field, wordMapSchema.optional()])) as { [F in ValueField]: z.ZodOptional<typeof wordMapSchema> },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `is not a field with a closed vocabulary (${VALUE_FIELD_NAMES.join(", ")})` : undefined) },
  )
  .superRefine((values, ctx) => {
    for (const field of VALUE_FIELD_NAMES) {
      const ours = VALUE_FIELDS[field];
      const words = values[field];
      if (!ours || !words) continue;
      const seen = new Map<string, string>();
      for (const [theirs, target] of Object.entries(words)) {
        if (!ourWord(ours, target))
          ctx.addIssue({ code: "custom", path: [field, theirs], message: `maps to "${target}", which is not one of ${ours.join(", ")}` });
        const key = valueKey(theirs);
        if (seen.has(key))
          ctx.addIssue({ code: "custom", path: [field, theirs], message: `is the same word as "${seen.get(key)}" (case and spacing do not count)` });
        seen.set(key, theirs);
      }
    }
  })
  .meta({
    id: "ImportValues",
    description:
      'For each field with a closed vocabulary, the file\'s words in ours: `{ "intakeType": { "OWNER SURRENDER": "relinquishedByOwner" } }`. A file\'s word is matched trimmed, ignoring case and inner spacing; one of our own words needs no entry. A row with a word neither ours nor mapped is refused, and the import\'s `unknownWords` lists each such word with its count. Species map to a category\'s name.',
  });

export const genericMappingSchema = z
  .strictObject(
    {
      ...(Object.fromEntries(GENERIC_FIELDS.map((field) => [field, (LIST_FIELDS.has(field) ? columnNames : columnName).optional()])) as {
        [F in GenericField]: z.ZodOptional<typeof columnName | typeof columnNames>;
      }),
      values: valuesSchema.optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `is not a field that can be mapped (${GENERIC_FIELDS.join(", ")}, or values)` : undefined) },
  )
  .superRefine((mapping, ctx) => {
    for (const field of ["name", "species"] as const) {
      if (!mapping[field]) ctx.addIssue({ code: "custom", path: [field], message: "is required: every animal needs it" });
    }
    if (STAY_FIELDS.some((field) => mapping[field]) && !mapping.intakeDate) {
      ctx.addIssue({
        code: "custom",
        path: ["intakeDate"],
        message: "is required with the stay columns (intakeType, outcomeDate…): a stay starts at its intake",
      });
    }
    for (const field of ["outcomeType", "outcomeSubtype"] as const) {
      if (mapping[field] && !mapping.outcomeDate)
        ctx.addIssue({ code: "custom", path: ["outcomeDate"], message: `is required with ${field}: an outcome has a date` });
    }
    if (mapping.outcomeDate && !mapping.outcomeType)
      ctx.addIssue({ code: "custom", path: ["outcomeType"], message: "is required with outcomeDate: an outcome has a type" });
    for (const field of VALUE_FIELD_NAMES) {
      if (mapping.values?.[field] && !mapping[field])
        ctx.addIssue({ code: "custom", path: ["values", field], message: `translates words of ${field}, which the mapping does not map to a column` });
    }
    const seen = new Map<string, string>();
    for (const field of GENERIC_FIELDS) {
      const value = mapping[field];
      for (const column of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
        const other = seen.get(column);
        if (other) ctx.addIssue({ code: "custom", path: [field], message: `names the column "${column}", which ${other} already takes` });
        seen.set(column, field);
      }
    }
  })
  .meta({
    id: "ImportMapping",
    // The two the refinement above requires, stated (the shape leaves every field optional so that it can say which is missing).
    required: ["name", "species"],
    description:
      "For a generic CSV file: which of its columns (by header name) holds each of our fields. `name` and `species` are required; `colors`, `tags` and `photoUrls` may name several columns. Without `externalId`, every row is a new animal. With the stay columns (`intakeType`, `intakeSubtype`, `outcomeDate`, `outcomeType`, `outcomeSubtype`, which need `intakeDate`), each row is one stay and rows with the same `externalId` are the stays of one animal; dates are M/D/YYYY, YYYY-MM-DD (that day in the organisation's time zone) or RFC 3339. `values` translates the file's words of closed-vocabulary fields into ours.",
    example: {
      externalId: "Animal ID",
      name: "Name",
      species: "Species",
      breed: "Breed",
      intakeDate: "Intake Date",
      intakeType: "Intake Type",
      outcomeDate: "Outcome Date",
      outcomeType: "Outcome Type",
      values: { intakeType: { "OWNER SURRENDER": "relinquishedByOwner" }, outcomeType: { EUTHANASIA: "shelterEuthanasia" } },
    },
  });
export type GenericMapping = z.infer<typeof genericMappingSchema>;

/** How each field is written (one cell, or the cells of a list) and read. */
type FieldCodec = {
  write: (a: ListingAnimal, columns: number) => string | string[];
  read?: (name: string, cell: string, s: ReadState) => void;
};

const columnsOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const words = (value: boolean | null) => (value === null ? "" : value ? "yes" : "no");

function flag(field: "mixedBreed" | "spayedNeutered" | "houseTrained" | "declawed" | "shotsCurrent" | "specialNeeds"): FieldCodec {
  return { write: (a) => words(a[field]), read: (name, cell, s) => readFlagCell(name, cell, s, (v) => (s.fields[field] = v)) };
}

function goodWith(kind: "children" | "dogs" | "cats"): FieldCodec {
  return {
    write: (a) => words(a.goodWith[kind]),
    read: (name, cell, s) => readFlagCell(name, cell, s, (v) => (s.fields.goodWith = { ...s.fields.goodWith, [kind]: v })),
  };
}

function date(field: "birthDate" | "intakeDate"): FieldCodec {
  return { write: (a) => a[field] ?? "", read: (name, cell, s) => readDateCell(name, cell, s, field, "YYYY-MM-DD or MM/DD/YYYY") };
}

function breed(field: "breed" | "secondaryBreed"): FieldCodec {
  return { write: (a) => a[field] ?? "", read: (name, cell, s) => readBreedCell(name, cell, s, field) };
}

/** Text kept as it is (a generic file's line breaks are in its quoted cells). */
function text(field: "description" | "specialNeedsNotes"): FieldCodec {
  return {
    write: (a) => a[field] ?? "",
    read: (_name, cell, s) => {
      s.fields[field] = cell.replace(/\r\n?/g, "\n") || null;
    },
  };
}

function stayCell(s: ReadState, field: keyof RowStay, cell: string): void {
  s.row.stay = { ...EMPTY_STAY, ...s.row.stay, [field]: cell || null };
}

const EMPTY_STAY: RowStay = { intakeDate: null, intakeType: null, intakeSubtype: null, outcomeDate: null, outcomeType: null, outcomeSubtype: null };

/** An intake or outcome type: one of the matrix's categories (the file's word translated by `values` first). */
function stayTypeCodec(field: "intakeType" | "outcomeType"): FieldCodec {
  const ours = field === "intakeType" ? IMPORT_INTAKE_WORDS : IMPORT_OUTCOME_WORDS;
  return {
    write: () => "",
    read: (name, cell, s) => {
      if (!cell) return stayCell(s, field, "");
      const word = ourWord(ours, cell);
      if (word) stayCell(s, field, word);
      else s.error(name, `${quoteCell(cell)} is not an ${field === "intakeType" ? "intake" : "outcome"} type (${ours.join(", ")}): map it in values.${field}`);
    },
  };
}

/** The shelter's own word, kept (at most 100 characters, as the stay holds it). */
function staySubtypeCodec(field: "intakeSubtype" | "outcomeSubtype"): FieldCodec {
  return {
    write: () => "",
    read: (name, cell, s) => {
      if ([...cell].length > 100) s.error(name, "is longer than 100 characters");
      else stayCell(s, field, cell);
    },
  };
}

const STATUS_WORDS: Record<string, FileStatus> = {
  available: "available",
  adoptable: "available",
  a: "available",
  pending: "pending",
  hold: "pending",
  onhold: "pending",
  h: "pending",
  p: "pending",
  adopted: "sold",
  sold: "sold",
  x: "sold",
  deleted: "delete",
  delete: "delete",
  removed: "delete",
};

const CODECS: Record<GenericField, FieldCodec> = {
  externalId: { write: (a) => rowIdOf(a) },
  name: { write: (a) => a.name },
  species: { write: (a) => a.categoryName },
  status: {
    write: (a) => a.status,
    read: (name, cell, s) => readStatusCell(name, cell, s, STATUS_WORDS, "a status (available, pending, adopted)"),
  },
  sex: { write: (a) => (a.sex === "unknown" ? "" : a.sex), read: (name, cell, s) => readSexCell(name, cell, s, "female or male") },
  size: { write: (a) => a.size ?? "", read: (name, cell, s) => readSizeCell(name, cell, s, "a size (small, medium, large, xlarge)") },
  birthDate: date("birthDate"),
  ageGroup: { write: (a) => a.ageGroup ?? "", read: (name, cell, s) => readAgeCell(name, cell, s, "baby, young, adult or senior") },
  breed: breed("breed"),
  secondaryBreed: breed("secondaryBreed"),
  mixedBreed: flag("mixedBreed"),
  description: text("description"),
  goodWithChildren: goodWith("children"),
  goodWithDogs: goodWith("dogs"),
  goodWithCats: goodWith("cats"),
  colors: {
    write: (a, columns) => (columns === 1 ? a.colors.join("; ") : Array.from({ length: columns }, (_, i) => a.colors[i] ?? "")),
    read: (_name, cell, s) => {
      const kind = s.kind;
      // A colour may itself hold commas ("Tricolor (Brown, Black, & White)").
      const items = kind && petfinderColor(kind, cell) ? [cell] : splitList(cell);
      s.fields.colors = [...(s.fields.colors ?? []), ...items.map((c) => matchColor(kind, c))];
    },
  },
  coatLength: {
    write: (a) => a.coatLength ?? "",
    read: (name, cell, s) => readCoatCell(name, cell, s, "a coat length (hairless, short, medium, long, wire, curly)"),
  },
  spayedNeutered: flag("spayedNeutered"),
  houseTrained: flag("houseTrained"),
  declawed: flag("declawed"),
  shotsCurrent: flag("shotsCurrent"),
  specialNeeds: flag("specialNeeds"),
  specialNeedsNotes: text("specialNeedsNotes"),
  adoptionFee: {
    write: (a) => (a.adoptionFee ? decimalMoney(a.adoptionFee.amountCents) : ""),
    read: (name, cell, s) => {
      const cents = readMoney(cell);
      if (cents === undefined) s.error(name, `${quoteCell(cell)} is not an amount`);
      else
        s.fields.adoptionFee =
          cents === null ? null : { amountCents: cents, currency: s.fields.adoptionFee?.currency ?? "USD", waived: s.fields.adoptionFee?.waived ?? false };
    },
  },
  adoptionFeeCurrency: {
    write: (a) => a.adoptionFee?.currency ?? "",
    read: (name, cell, s) => {
      const currency = cell.toUpperCase();
      if (!currency || !s.fields.adoptionFee) return;
      if (!/^[A-Z]{3}$/.test(currency)) s.error(name, `"${cell}" is not a currency code (USD, CAD, ...)`);
      else s.fields.adoptionFee = { ...s.fields.adoptionFee, currency };
    },
  },
  adoptionFeeWaived: {
    write: (a) => (a.adoptionFee ? words(a.adoptionFee.waived) : ""),
    read: (name, cell, s) =>
      readFlagCell(name, cell, s, (waived) => {
        if (waived) s.fields.adoptionFee = { amountCents: 0, currency: "USD", ...s.fields.adoptionFee, waived: true };
      }),
  },
  intakeDate: {
    write: (a) => a.intakeDate ?? "",
    read: (name, cell, s) => {
      readDateCell(name, cell, s, "intakeDate", "YYYY-MM-DD or MM/DD/YYYY");
      stayCell(s, "intakeDate", cell);
    },
  },
  intakeType: stayTypeCodec("intakeType"),
  intakeSubtype: staySubtypeCodec("intakeSubtype"),
  outcomeDate: { write: () => "", read: (_name, cell, s) => stayCell(s, "outcomeDate", cell) },
  outcomeType: stayTypeCodec("outcomeType"),
  outcomeSubtype: staySubtypeCodec("outcomeSubtype"),
  videoUrl: {
    write: (a) => a.videoUrl ?? "",
    read: (name, cell, s) => {
      if (cell === "") s.fields.videoUrl = null;
      else if (isVideoUrl(cell)) s.fields.videoUrl = cell;
      else s.warn(name, `${quoteCell(cell)} is not a YouTube or Vimeo address: left out`);
    },
  },
  tags: {
    write: (a, columns) => (columns === 1 ? a.tags.join("; ") : Array.from({ length: columns }, (_, i) => a.tags[i] ?? "")),
    read: (_name, cell, s) => {
      s.fields.tags = [...(s.fields.tags ?? []), ...splitList(cell)];
    },
  },
  photoUrls: {
    write: (a, columns) => (columns === 1 ? a.photos.map((p) => p.url).join(" ") : Array.from({ length: columns }, (_, i) => a.photos[i]?.url ?? "")),
    read: (name, cell, s) => {
      for (const url of cell.split(/\s+|[,;]\s*(?=https?:)/i).filter(Boolean)) {
        if (isHttpUrl(url)) s.row.photoUrls.push(url);
        else s.warn(name, `${quoteCell(url)} is not an address the import can fetch a photo from: left out`);
      }
    },
  },
};

/** The file's columns a refused mapping's message names. */
const HEADER_SHOWN = 40;

/**
 * A closed field's reader, which refuses a word that is neither ours nor
 * mapped (its row is refused; the word is listed in the import's
 * unknownWords): the shared readers only warn for some (a coat, an age
 * group), which left a shelter's words silently out.
 */
function closedField(field: ValueField, read: NonNullable<FieldCodec["read"]>): NonNullable<FieldCodec["read"]> {
  return (name, cell, s) => {
    const errors = s.row.errors.length;
    const warnings = s.row.warnings.length;
    read(name, cell, s);
    if (!cell || (s.row.errors.length === errors && s.row.warnings.length === warnings)) return;
    for (const warning of s.row.warnings.splice(warnings)) s.row.errors.push({ ...warning, message: warning.message.replace(/: left out$/, "") });
    (s.row.unknownWords ??= []).push({ field, word: cell });
  };
}

/** The generic format over one mapping. `header` (the file's) is checked against it: a column it names must be there; `categories`, the species `values` name. */
export function genericFormat(mapping: GenericMapping, header?: readonly string[], categories?: readonly NamedCategory[]) {
  const entries = GENERIC_FIELDS.flatMap((field) => columnsOf(mapping[field]).map((column) => ({ field, column, count: columnsOf(mapping[field]).length })));
  if (header) {
    const present = new Set(header.map((h) => h.trim()));
    const missing = entries.filter((e) => !present.has(e.column)).map((e) => `${quoteCell(e.column)} (${e.field})`);
    if (missing.length) {
      // A header may have 200 names of up to 64 KB: the message names the first ones, each as a short excerpt.
      const shown = header.slice(0, HEADER_SHOWN).map((h) => quoteCell(h));
      const more = header.length > HEADER_SHOWN ? `, … (${header.length} in all)` : "";
      throw new ListingFileError(
        "invalid_mapping",
        `The mapping names columns the file does not have: ${missing.join(", ")}. Its columns are: ${shown.join(", ")}${more}.`,
      );
    }
  }
  const speciesWords = mapping.values?.species;
  if (categories && speciesWords) {
    const unknown = Object.values(speciesWords).filter((target) => !matchCategory(target, categories));
    if (unknown.length) {
      throw new ListingFileError(
        "invalid_mapping",
        `values.species maps to ${unknown.map((t) => quoteCell(t)).join(", ")}, which no category is: use a category's name (${categories.map((c) => c.name).join(", ")}).`,
      );
    }
  }
  // The file's word in each mapped closed column, looked up in `values` (a column maps one field, so one table each).
  const tables = new Map<string, Map<string, string>>();
  for (const field of VALUE_FIELD_NAMES) {
    const words = mapping.values?.[field];
    const column = mapping[field];
    if (words && typeof column === "string") tables.set(column, new Map(Object.entries(words).map(([theirs, ours]) => [valueKey(theirs), ours.trim()])));
  }
  const readable: Column[] = entries.map(({ field, column }) => {
    const read = CODECS[field].read;
    return {
      name: column,
      write: () => "",
      read: read && (isValueField(field) ? (cell, s) => closedField(field, read)(column, cell, s) : (cell, s) => read(column, cell, s)),
    };
  });
  const spec: ReadSpec = {
    readable,
    idColumns: columnsOf(mapping.externalId),
    speciesColumn: mapping.species as string,
    nameColumn: mapping.name as string,
    translate: tables.size ? (column, cell) => (cell && tables.get(column)?.get(valueKey(cell))) || cell : undefined,
    namelessById: true,
  };
  const columns = entries.map((e) => e.column);

  return {
    name: "generic" as const,
    columns,
    toRow(animal: ListingAnimal): WrittenRow {
      const warnings: WriteIssue[] = [];
      if (listedKindOf(animal.categoryName) === null)
        warnings.push({ field: "categoryId", message: `the category "${animal.categoryName}" has no listing-site words: written as it is` });
      const cells = GENERIC_FIELDS.flatMap((field) => {
        const count = columnsOf(mapping[field]).length;
        if (count === 0) return [];
        const value = CODECS[field].write(animal, count);
        return Array.isArray(value) ? value : [value];
      });
      return { rowId: rowIdOf(animal), cells, warnings, photos: [] };
    },
    fromRow: (record: ListingRecord, context: ReadContext): ImportedRow => readRow(spec, record, context),
    /** RFC 4180: the header row, then a row per animal; CRLF after every line. */
    writeFile: (rows: readonly (readonly string[])[]): string => [columns, ...rows].map((cells) => `${rfc4180Line(cells)}\r\n`).join(""),
  };
}
