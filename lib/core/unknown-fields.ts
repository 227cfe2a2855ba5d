import type { z } from "zod";

// Every JSON body refuses the fields it does not know (400 invalid_body
// naming each), at every depth: a field we drop silently is something the
// client believes it told us and we never kept (`"goodWithChildren": false`
// answered 201 while goodWith.children stayed unknown). This module walks
// the zod schemas themselves: to find, for an unknown field, the known one
// it most likely meant (a flat spelling of a nested field, another case),
// and for the test that holds every route's body to being strict
// (tests/api/unknown-fields.test.ts).

/** The parts of zod's internal definition this walk reads (zod 4's `_zod.def`). */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  valueType?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas a schema wraps or combines (what parses the same input, or a part of it), with the key each sits under ("" for the same level, "[]" for an item). */
function children(def: Def): { key: string; schema: z.ZodType }[] {
  const same = (s: z.ZodType | null | undefined) => (s ? [{ key: "", schema: s }] : []);
  switch (def.type) {
    case "object":
      return Object.entries(def.shape ?? {}).map(([key, schema]) => ({ key, schema }));
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return same(def.innerType);
    case "pipe":
      return [...same(def.in), ...same(def.out)];
    case "union":
      return (def.options ?? []).flatMap((s) => same(s));
    case "intersection":
      return [...same(def.left), ...same(def.right)];
    case "lazy":
      return same(def.getter?.());
    case "array":
      return def.element ? [{ key: "[]", schema: def.element }] : [];
    case "tuple":
      return [...(def.items ?? []), ...(def.rest ? [def.rest] : [])].map((schema) => ({ key: "[]", schema }));
    case "record":
      return def.valueType ? [{ key: "[]", schema: def.valueType }] : [];
    default:
      return [];
  }
}

/** Whether an object schema refuses keys it does not name (z.strictObject: its catchall is never). */
const isStrict = (def: Def) => def.catchall !== undefined && defOf(def.catchall).type === "never";

/**
 * Every object in a schema that lets unknown keys through (stripped or
 * kept), by its dotted path ("" for the top, "[]" for an array's items);
 * empty when each refuses them. A record is no object here: any key is its
 * point.
 */
export function lenientObjects(schema: z.ZodType): string[] {
  const found = new Set<string>();
  const seen = new Set<z.ZodType>();
  const walk = (s: z.ZodType, path: string) => {
    if (seen.has(s)) return;
    seen.add(s);
    const def = defOf(s);
    if (def.type === "object" && !isStrict(def)) found.add(path || "(the body)");
    for (const child of children(def)) walk(child.schema, child.key ? (path ? `${path}.${child.key}` : child.key) : path);
  };
  walk(schema, "");
  return [...found];
}

/** The fields an object schema (or what wraps it) names, nested ones as dotted paths, to `depth` levels. */
function fieldPaths(schema: z.ZodType, depth = 3, seen = new Set<z.ZodType>()): string[] {
  if (depth === 0 || seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  return children(def).flatMap(({ key, schema: child }) => {
    if (key === "[]") return [];
    if (key === "") return fieldPaths(child, depth, seen);
    return [key, ...fieldPaths(child, depth - 1, seen).map((p) => `${key}.${p}`)];
  });
}

/** The schema that parses the value at `path` (object keys, array indexes), if the walk can tell. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | null {
  if (path.length === 0) return schema;
  const [head, ...rest] = path;
  const key = typeof head === "number" ? "[]" : String(head);
  const look = (s: z.ZodType, seen: Set<z.ZodType>): z.ZodType | null => {
    if (seen.has(s)) return null;
    seen.add(s);
    for (const child of children(defOf(s))) {
      const found = child.key === key ? schemaAt(child.schema, rest) : child.key === "" ? look(child.schema, seen) : null;
      if (found) return found;
    }
    return null;
  };
  return look(schema, new Set());
}

const spelling = (field: string) => field.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * The known field an unknown one most likely meant, as a dotted path from
 * the body's top: a flat spelling of a nested field ("goodWithChildren",
 * "good_with_children" -> goodWith.children) or the same name in another
 * case or separator ("Name" -> name). Null when nothing is that close.
 */
export function meantField(schema: z.ZodType, objectPath: readonly PropertyKey[], unknown: string): string | null {
  const object = schemaAt(schema, objectPath);
  if (!object) return null;
  const wanted = spelling(unknown);
  const match = fieldPaths(object).find((candidate) => candidate !== unknown && spelling(candidate) === wanted);
  return match === undefined ? null : [...objectPath.map(String), match].join(".");
}
