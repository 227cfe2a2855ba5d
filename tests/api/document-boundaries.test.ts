import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { db } from "@/lib/db";
import { KEY_SCOPES } from "@/lib/keys/schemas";
import { tokenOf } from "./alerts-helpers";
import { allowPrivateWebhooks, call, newKey, seedPets, staffSession, type RouteHandler } from "./helpers";

// The document states every rule the service enforces on a request: this
// test reads the documents as a generator would (the partner's, and the
// site's own operations that a staff session calls), and for every
// operation's request (JSON bodies, multipart fields, query parameters)
// probes every field at the bounds the document gives it, against the real
// handlers on the test database:
//   - at a limit (minLength, maxLength, minimum, maximum, minItems, maxItems,
//     an enum's value, a pattern's or format's example): not refused with a
//     400 naming the field;
//   - one past it (and a value breaking the pattern, format or enum, a
//     required field left out): 400 naming the field in `details`;
//   - a string the document leaves open (no length, pattern, format or enum)
//     takes a long value without a 400 naming it;
//   - and nothing answers 500.
// Nothing here names an operation or a field but two short lists (the rules
// a document can state in prose only, and the refusals that depend on the
// world rather than on a value's form) and the fixtures a documented example
// cannot make offline: a route added to the document is probed by the same
// rules (a new path parameter is found by creating one through its
// collection's POST, or listing it).

allowPrivateWebhooks();

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  example?: unknown;
  default?: unknown;
  contentMediaType?: string;
};
type Parameter = { name: string; in: string; required?: boolean; schema: Schema; style?: string; explode?: boolean };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema; encoding?: Record<string, { contentType?: string }> }> };
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

// The site's document: the partner document's operations and the site's own (sessions, keys, the audit
// trail, applications), which a staff session calls. Its components are the partner's and more.
const partner = buildOpenApiDocument("partner") as unknown as Doc;
const doc = buildOpenApiDocument("site") as unknown as Doc;
const isSiteOnly = (route: string, method: string) => !partner.paths[route]?.[method as (typeof METHODS)[number]];
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function deref(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) s = doc.components.schemas[s.$ref.split("/").at(-1)!]!;
  if (s.allOf?.length === 1 && !s.properties) return { ...deref(s.allOf[0]!), ...s, allOf: undefined };
  return s;
}

/** The schema without its null branch (`["string","null"]`, anyOf with {type: null}); the first other branch of a union. */
function nonNull(schema: Schema): Schema {
  const s = deref(schema);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const first = branches.map(deref).find((b) => b.type !== "null");
    return first ? nonNull({ ...first, example: first.example ?? s.example }) : s;
  }
  if (Array.isArray(s.type)) {
    const type = s.type.filter((t) => t !== "null");
    return { ...s, type: type.length === 1 ? type[0] : type, enum: s.enum?.filter((v) => v !== null) };
  }
  return s;
}

const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type[0] : s.type) ?? (s.properties ? "object" : s.items ? "array" : undefined);

/** Labels of at most 63 letters joined by dots, `length` long: what a host name pattern takes. */
function dotted(length: number): string {
  let out = "";
  while (length - out.length > 63) out += `${"a".repeat(Math.min(63, length - out.length - 2))}.`;
  return out + "a".repeat(length - out.length);
}

/** A value of `length` characters that the schema's pattern and format still take, built from its example; undefined when none can be. */
function stringOfLength(s: Schema, length: number, seed = "x"): string | undefined {
  const pattern = s.pattern ? new RegExp(s.pattern, "u") : undefined;
  const fits = (v: string) => [...v].length === length && (!pattern || pattern.test(v));
  const example = typeof s.example === "string" ? s.example : undefined;
  const candidates: string[] = [];
  const pad = (n: number) => seed.repeat(Math.max(0, n));
  if (s.format === "email") candidates.push(`${pad(length - "@example.org".length)}@example.org`);
  else if (s.format === "uri") {
    const base = example ?? "https://example.org/";
    const joint = base.includes("?") ? "&p=" : "?p=";
    candidates.push(`${base}${joint}${pad(length - base.length - joint.length)}`);
  } else if (s.format && s.format !== "binary") return example !== undefined && fits(example) ? example : undefined;
  else {
    // One character outside the BMP first: JSON Schema counts characters (code points), not UTF-16 units.
    if (!pattern && length >= 2) candidates.push(`\u{1F43E}${pad(length - 1)}`);
    if (!pattern) candidates.push(pad(length));
    if (example !== undefined) {
      if (example.length >= length) candidates.push(example.slice(0, length), example.slice(example.length - length));
      const last = example.at(-1) ?? seed;
      candidates.push(example + last.repeat(Math.max(0, length - example.length)), example[0]!.repeat(Math.max(0, length - example.length)) + example);
      // Spaces around it, where the pattern allows them (`within`: "   25mi").
      candidates.push(" ".repeat(Math.max(0, length - example.length)) + example);
    }
    candidates.push(pad(length), "1".repeat(length), "a".repeat(length), dotted(length));
  }
  return candidates.find(fits);
}

/** A value the schema takes (its example first), for the parts of a request not being probed. */
function validValue(schema: Schema, depth = 0): unknown {
  const s = nonNull(schema);
  if (s.example !== undefined && typeOf(s) !== "object") return s.example;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  switch (typeOf(s)) {
    case "string":
      if (s.format === "binary") return undefined;
      if (s.format === "date") return "2020-01-01";
      if (s.format === "date-time") return new Date().toISOString();
      return stringOfLength(s, Math.max(s.minLength ?? 1, Math.min(s.maxLength ?? 8, 8))) ?? "x";
    case "integer":
    case "number":
      return Math.max(s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1);
    case "boolean":
      return true;
    case "array":
      return s.minItems ? Array.from({ length: s.minItems }, () => validValue(s.items ?? {}, depth + 1)) : [];
    case "object": {
      if (s.example !== undefined && depth > 0) return s.example;
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const p = nonNull(prop);
        const scalar = typeOf(p) !== "object" && p.format !== "binary";
        // Required fields, and the optional ones with an example (one may need another: `within` needs `near`).
        if ((s.required ?? []).includes(name) || (scalar && p.example !== undefined)) {
          const v = validValue(prop, depth + 1);
          if (v !== undefined) out[name] = v;
        }
      }
      return out;
    }
  }
  return undefined;
}

/** n distinct values the item schema takes (for an array at its maxItems). */
function distinctItems(items: Schema, n: number): unknown[] | undefined {
  const s = nonNull(items);
  if (s.enum) return s.enum.length >= n ? s.enum.slice(0, n) : undefined;
  if (typeOf(s) === "integer" || typeOf(s) === "number") return Array.from({ length: n }, (_, i) => (s.minimum ?? 1) + i);
  if (typeOf(s) === "string") {
    const values = Array.from({ length: n }, (_, i) =>
      stringOfLength(s, Math.max(s.minLength ?? 1, String(i).length + 1), "y")?.replace(/y+$/, (m) => `${m.slice(String(i).length)}${i}`),
    );
    return values.every((v) => typeof v === "string" && (!s.pattern || new RegExp(s.pattern, "u").test(v))) && new Set(values).size === n ? values : undefined;
  }
  return undefined;
}

type Probe = { field: string; why: string; expect: "taken" | "refused"; value?: unknown; omit?: boolean; unique?: boolean };

/** Every probe the document's statements about one field imply. */
let serial = 0;
/**
 * The value made different from every other probe's, keeping its length and what its pattern and format
 * take (a slug or an email the previous probe stored would be "taken"); as it was when no variant fits.
 */
function uniquely(value: string, schema: Schema): string {
  const s = nonNull(schema);
  // A format of the service's own (a time zone name) has no variant known to be one too.
  if (s.format && s.format !== "email" && s.format !== "uri") return value;
  const n = String(++serial);
  const pattern = s.pattern ? new RegExp(s.pattern, "u") : undefined;
  // By characters (code points), as the limits count: a probe at maxLength stays exactly at it.
  const chars = [...value];
  const length = chars.length;
  const head = (k: number) => chars.slice(0, k).join("");
  const fits = (v: string) =>
    (!pattern || pattern.test(v)) && (s.maxLength === undefined || [...v].length <= s.maxLength) && (s.format !== "email" || /^[^@]+@example\.org$/.test(v));
  const variants = [
    s.format === "email" ? n + chars.slice(n.length).join("") : undefined,
    length > n.length ? head(length - n.length) + n : undefined,
    length > n.length + 1 ? `${head(length - n.length - 1)}-${n}` : undefined,
    `${value}-${n}`,
    value + n,
  ];
  return variants.find((v): v is string => v !== undefined && [...v].length >= Math.min(length, s.maxLength ?? length) && fits(v)) ?? value;
}

function probesFor(field: string, schema: Schema, required: boolean, out: Probe[], unbuilt: string[], depth = 0): void {
  const s = nonNull(schema);
  if (depth > 4) return;
  if (required) out.push({ field, why: "required, left out", expect: "refused", omit: true });
  const type = typeOf(s);
  if (s.const !== undefined) {
    out.push({ field, why: "its const", expect: "taken", value: s.const });
    out.push({ field, why: "not its const", expect: "refused", value: typeof s.const === "boolean" ? !s.const : "surely-not-this" });
    return;
  }
  if (s.enum?.length) {
    for (const v of s.enum) out.push({ field, why: `enum value ${JSON.stringify(v)}`, expect: "taken", value: v });
    out.push({ field, why: "a value not in its enum", expect: "refused", value: type === "integer" ? 987654 : "surely-not-listed" });
    return;
  }
  if (type === "string") {
    if (s.format === "binary") return;
    const closed = s.maxLength !== undefined || s.pattern !== undefined || (s.format !== undefined && s.format !== "binary");
    if (s.maxLength !== undefined) {
      const at = stringOfLength(s, s.maxLength);
      if (at !== undefined) out.push({ field, why: `at maxLength ${s.maxLength}`, expect: "taken", value: at, unique: true });
      else if (s.maxLength > 0) unbuilt.push(`${field} (maxLength ${s.maxLength}${s.pattern ? `, pattern` : ""}${s.format ? `, format ${s.format}` : ""})`);
      out.push({
        field,
        why: `maxLength ${s.maxLength} + 1`,
        expect: "refused",
        value:
          stringOfLength({ ...s, pattern: undefined, format: s.format === "email" || s.format === "uri" ? s.format : undefined }, s.maxLength + 1) ??
          "x".repeat(s.maxLength + 1),
      });
    }
    if (s.minLength !== undefined && s.minLength > 0) {
      const at = stringOfLength(s, s.minLength);
      if (at !== undefined) out.push({ field, why: `at minLength ${s.minLength}`, expect: "taken", value: at, unique: s.minLength > 2 });
      out.push({ field, why: `minLength ${s.minLength} - 1`, expect: "refused", value: "x".repeat(s.minLength - 1) });
    }
    if (s.pattern !== undefined) {
      const pattern = new RegExp(s.pattern, "u");
      if (typeof s.example === "string") out.push({ field, why: "its example (pattern)", expect: "taken", value: s.example, unique: true });
      // Values that break the common patterns: a formula, a comma, a control character, punctuation.
      const breaking = ["!#", "surely not ~ matching", "%%%%%", "\u00e9\u00e9", "=1+1", "a,b", "a\u0001b"].find(
        (v) => !pattern.test(v) && (s.maxLength === undefined || v.length <= s.maxLength),
      );
      if (breaking !== undefined) out.push({ field, why: `breaks pattern ${s.pattern}`, expect: "refused", value: breaking });
    }
    if (s.format === "email" || s.format === "uri" || s.format === "date" || s.format === "date-time") {
      if (typeof s.example === "string") out.push({ field, why: `its example (format ${s.format})`, expect: "taken", value: s.example, unique: true });
      out.push({ field, why: `not a ${s.format}`, expect: "refused", value: s.format === "date" ? "2020-13-45" : "not a value of this format" });
    }
    if (!closed) out.push({ field, why: "left open: a long value", expect: "taken", value: "x".repeat(5000), unique: true });
    return;
  }
  if (type === "integer" || type === "number") {
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined);
    const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : undefined);
    const step = type === "integer" ? 1 : 0.5;
    if (min !== undefined) {
      out.push({ field, why: `at minimum ${min}`, expect: "taken", value: min });
      out.push({ field, why: `minimum ${min} - ${step}`, expect: "refused", value: min - step });
    }
    if (max !== undefined) {
      out.push({ field, why: `at maximum ${max}`, expect: "taken", value: max });
      out.push({ field, why: `maximum ${max} + ${step}`, expect: "refused", value: max === Number.MAX_SAFE_INTEGER ? 9007199254740992 : max + step });
    }
    if (type === "integer") out.push({ field, why: "not an integer", expect: "refused", value: (min ?? 1) + 0.5 });
    return;
  }
  if (type === "array") {
    const items = s.items ?? {};
    if (s.maxItems !== undefined) {
      const full = distinctItems(items, s.maxItems);
      if (full) out.push({ field, why: `at maxItems ${s.maxItems}`, expect: "taken", value: full });
      else unbuilt.push(`${field} (maxItems ${s.maxItems})`);
      // An enum of fewer values than maxItems + 1 cannot make a longer list without repeating one (which the document does not forbid).
      const over = distinctItems(items, s.maxItems + 1);
      if (over) out.push({ field, why: `maxItems ${s.maxItems} + 1`, expect: "refused", value: over });
      else unbuilt.push(`${field} (maxItems ${s.maxItems} + 1: only ${nonNull(items).enum?.length ?? "?"} distinct values)`);
    }
    if (s.minItems !== undefined && s.minItems > 0) {
      out.push({ field, why: `minItems ${s.minItems} - 1`, expect: "refused", value: distinctItems(items, s.minItems - 1) ?? [] });
    }
    // The items' own rules, one item at a time.
    const inner: Probe[] = [];
    probesFor(`${field}.0`, items, false, inner, unbuilt, depth + 1);
    const padding = Array.from({ length: Math.max(0, (s.minItems ?? 1) - 1) }, (_, i) => distinctItems(items, s.minItems ?? 1)?.[i + 1] ?? validValue(items));
    // An item's refusal may name the item (`tags.0`) or its array (`tags`): both are the array's path.
    for (const p of inner) if (p.field === `${field}.0` && !p.omit) out.push({ ...p, field, why: `an item: ${p.why}`, value: [p.value, ...padding] });
    return;
  }
  if (type === "object") {
    for (const [name, prop] of Object.entries(s.properties ?? {}))
      probesFor(`${field}.${name}`, prop, (s.required ?? []).includes(name), out, unbuilt, depth + 1);
  }
}

// ---- sending a request ------------------------------------------------------

const ROUTES = path.join(process.cwd(), "app", "v1");

async function handlerFor(route: string, method: string): Promise<RouteHandler | undefined> {
  const file = path.join(ROUTES, route.replace(/\{(\w+)\}/g, "[$1]"), "route.ts");
  if (!fs.existsSync(file)) throw new Error(`no route file for ${route}: ${file}`);
  const mod = (await import(file)) as Record<string, RouteHandler | undefined>;
  return mod[method.toUpperCase()];
}

let png: Buffer;
let csv: string;
let key: string;
/** A staff session of the first organisation, for the site's own operations (a caller, as a key is). */
const STAFF = "staff session";
let staffHeaders: Record<string, string>;
let platformKey: string;
const pathValues: Record<string, string> = {};

type RequestShape = { query: Record<string, unknown>; body?: unknown; media?: string; encoding?: Record<string, { contentType?: string }> };

function setAt(target: Record<string, unknown>, field: string, probe: Probe): void {
  const parts = field.split(".");
  let at: Record<string, unknown> = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof at[part] !== "object" || at[part] === null) at[part] = {};
    at = at[part] as Record<string, unknown>;
  }
  if (probe.omit) delete at[parts.at(-1)!];
  else at[parts.at(-1)!] = probe.value;
}

function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    params.set(k, Array.isArray(v) ? v.map(String).join(",") : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

function bodyOf(shape: RequestShape): { body?: BodyInit; headers: Record<string, string> } {
  if (shape.body === undefined) return { headers: {} };
  if (shape.media === "multipart/form-data") {
    const form = new FormData();
    for (const [k, v] of Object.entries(shape.body as Record<string, unknown>)) {
      if (v === undefined) continue;
      const type = shape.encoding?.[k]?.contentType ?? "";
      if (v instanceof Blob) form.set(k, v, k === "file" && /image/.test(type) ? "probe.png" : "probe.csv");
      else form.set(k, /json/.test(type) || (typeof v === "object" && v !== null) ? JSON.stringify(v) : String(v));
    }
    return { body: form, headers: {} };
  }
  return { body: JSON.stringify(shape.body), headers: { "content-type": shape.media ?? "application/json" } };
}

async function send(
  route: string,
  method: string,
  shape: RequestShape,
  asKey = key,
): Promise<{ status: number; code: string; fields: string[]; text: string }> {
  const handler = await handlerFor(route, method);
  const concrete = route.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name]!);
  const params = Object.fromEntries([...route.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, pathValues[name!]!]));
  const { body, headers } = bodyOf(shape);
  const res = await call(handler, `/v1${concrete}${queryString(shape.query)}`, {
    method: method.toUpperCase(),
    ...(asKey === STAFF ? { headers: { ...staffHeaders, ...headers } } : { key: asKey, headers }),
    params,
    body,
  });
  const text = await res.text();
  let fields: string[] = [];
  let code = "";
  if (res.status >= 400) {
    try {
      const error = JSON.parse(text) as { code: string; details?: { field: string }[] };
      code = error.code;
      fields = (error.details ?? []).map((d) => d.field);
    } catch {
      fields = [];
    }
  }
  return { status: res.status, code, fields, text: text.slice(0, 300) };
}

const names = (fields: string[], field: string) => fields.some((f) => f === field || f.startsWith(`${field}.`));

/**
 * Refusals of a well-formed value for what it refers to in the world, not for its form: no such
 * category or organisation, a place no ZIP code list has, a cursor this API never issued, a host that
 * does not resolve to a public address. No document can state these; a value at a documented limit may
 * meet them and still be one the document's rules take.
 */
const WORLD_CODES = new Set(["unknown_category", "unknown_organization", "unknown_location", "invalid_cursor", "invalid_webhook_url", "invalid_listing_host"]);

/**
 * Rules the document states in prose only, because they depend on another field or on stored data, by
 * operation and field; each with the reason. Every other field is held to the document's own bounds.
 */
const PROSE_RULES: Record<string, string> = {
  "updatePet photoOrder": "lists each of the animal's own photos once: which ids those are is data, not form",
  "createListingSite port": "a listing site's own FTP host (the default host) takes port 21 only; the range is for a host of your own",
  "testListingSiteConnection port": "as createListingSite's",
  "updateListingSite port": "as createListingSite's",
  "createPet intake.detail":
    "goes with the intake's type (seizedOrImpounded with otherIntake; a distance with transferredIn): the pair is the rule, not the value alone",
  "createStay intake.detail": "as createPet's",
  "correctStay intake.detail": "as createPet's",
  "endStay detail": "a distance goes with the outcome type transferredOut only",
  "correctStay outcome.detail": "as endStay's",
};

/** The request body's media type a generator would pick: JSON first, else the one documented. */
function mediaOf(op: Operation): string | undefined {
  const types = Object.keys(op.requestBody?.content ?? {});
  return types.find((t) => t === "application/json") ?? types.find((t) => /json/.test(t)) ?? types[0];
}

function baseline(op: Operation): RequestShape {
  const query: Record<string, unknown> = {};
  for (const p of op.parameters ?? []) {
    if (p.in !== "query") continue;
    const s = nonNull(p.schema);
    if (p.required || s.example !== undefined) query[p.name] = validValue(p.schema);
  }
  const media = mediaOf(op);
  if (!media) return { query };
  const content = op.requestBody!.content[media]!;
  const body = validValue(content.schema) as Record<string, unknown>;
  if (media === "multipart/form-data") {
    // Files by what the form says they are: an image where images go, else a listing file (CSV).
    for (const [name, prop] of Object.entries(deref(content.schema).properties ?? {})) {
      if (nonNull(prop).format !== "binary") continue;
      const type = content.encoding?.[name]?.contentType ?? nonNull(prop).contentMediaType ?? "";
      body[name] =
        /image/.test(type) || /photo/i.test(JSON.stringify(prop))
          ? new Blob([new Uint8Array(png)], { type: "image/png" })
          : new Blob([csv], { type: "text/csv" });
    }
  }
  return { query, body, media, encoding: content.encoding };
}

function clone(shape: RequestShape): RequestShape {
  const body = shape.body && typeof shape.body === "object" ? structuredCloneWithBlobs(shape.body as Record<string, unknown>) : shape.body;
  return { ...shape, query: structuredClone(shape.query), body };
}
function structuredCloneWithBlobs(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v instanceof Blob ? v : structuredClone(v)]));
}

/** The schema of a probed field, by its dotted path, in the query or the body. */
function schemaAt(op: Operation, where: "query" | "body", field: string): Schema {
  const [first, ...rest] = field.split(".");
  let s: Schema =
    where === "query"
      ? (op.parameters ?? []).find((p) => p.in === "query" && p.name === first)!.schema
      : (deref(op.requestBody!.content[mediaOf(op)!]!.schema).properties ?? {})[first!]!;
  for (const part of rest) s = nonNull(s).properties?.[part] ?? {};
  return s;
}

const operations = Object.entries(doc.paths).flatMap(([route, ops]) => METHODS.filter((m) => ops[m]).map((method) => ({ route, method, op: ops[method]! })));

/** A value for a path parameter: a thing made through its collection's POST (as documented), or the first one its collection lists. */
async function resolvePathParameter(route: string, name: string): Promise<void> {
  if (pathValues[name]) return;
  const declared = Object.values(doc.paths[route] ?? {})
    .flatMap((op) => op.parameters ?? [])
    .find((p) => p.in === "path" && p.name === name);
  const schema = declared ? nonNull(declared.schema) : {};
  // A name from a list (a listing file's): its first.
  if (schema.enum?.length) {
    pathValues[name] = String(schema.enum[0]);
    return;
  }
  const collection = route.slice(0, route.indexOf(`/{${name}}`));
  for (const parent of collection.matchAll(/\{(\w+)\}/g)) await resolvePathParameter(route, parent[1]!);
  const post = doc.paths[collection]?.post;
  if (post) {
    for (const asKey of isSiteOnly(collection, "post") ? [STAFF] : [key, platformKey]) {
      const res = await send(collection, "post", baseline(post), asKey);
      if (res.status < 300) {
        pathValues[name] = String((JSON.parse(res.text.length < 300 ? res.text : "{}") as { id?: unknown }).id ?? "");
        if (pathValues[name]) return;
      }
    }
  }
  const get = doc.paths[collection]?.get;
  if (get) {
    const res = await call(await handlerFor(collection, "get"), `/v1${collection.replace(/\{(\w+)\}/g, (_, n: string) => pathValues[n]!)}`, {
      ...(isSiteOnly(collection, "get") ? { headers: staffHeaders } : { key }),
      params: Object.fromEntries([...collection.matchAll(/\{(\w+)\}/g)].map(([, n]) => [n!, pathValues[n!]!])),
    });
    const list = (await res.json()) as { id?: unknown }[] | { id?: unknown };
    const first = Array.isArray(list) ? list[0] : list;
    if (first?.id !== undefined) pathValues[name] = String(first.id);
  }
  if (!pathValues[name])
    throw new Error(`no value for the path parameter {${name}} of ${route}: neither POST ${collection} made one nor GET ${collection} listed one`);
}

beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#7a4" } })
    .png()
    .toBuffer();
  csv = fs.readFileSync(
    path.join(
      process.cwd(),
      "tests",
      "fixtures",
      "listings",
      fs.readdirSync(path.join(process.cwd(), "tests", "fixtures", "listings")).find((f) => /petfinder.*\.csv$/i.test(f))!,
    ),
    "utf8",
  );
  ({ key } = await newKey([...KEY_SCOPES], "boundaries", { plan: "enterprise", perMinute: 1_000_000, perDay: 1_000_000 }));
  ({ key: platformKey } = await newKey([...KEY_SCOPES], "boundaries, platform", { plan: "enterprise", perMinute: 1_000_000, perDay: 1_000_000 }, null));
  const [pet] = await seedPets([{ name: "Boundary" }]);
  pathValues.petId = String(pet!.id);
  // The animal in care and with a foster (the person the placements' examples name), so its
  // placements' paths have a placement to name whichever operation is walked first.
  const stay = await db().petStay.create({
    data: { petId: BigInt(pet!.id), organizationId: 1n, intakeAt: new Date("2020-01-01T00:00:00Z"), intakeType: "stray" },
  });
  await db().person.create({ data: { id: 3n, organizationId: 1n, name: "Boundary Foster", fosterStatus: "active", fosterCapacity: 50 } });
  await db().petPlacement.create({
    data: { petId: BigInt(pet!.id), organizationId: 1n, stayId: stay.id, personId: 3n, startAt: new Date("2020-01-02T00:00:00Z") },
  });
  pathValues.organizationId = "1";
  // What a documented example cannot make here (its hosts do not resolve without a network): a webhook
  // and a listing site at 127.0.0.1 (private targets allowed above), and a delivery of that webhook.
  const made = async (route: string, json: unknown) => {
    const res = await call(await handlerFor(route, "post"), `/v1${route.replace(/\{(\w+)\}/g, (_, n: string) => pathValues[n]!)}`, {
      method: "POST",
      key,
      json,
      params: Object.fromEntries([...route.matchAll(/\{(\w+)\}/g)].map(([, n]) => [n!, pathValues[n!]!])),
    });
    expect(res.status, `${route}: ${await res.clone().text()}`).toBeLessThan(300);
    return (await res.json()) as { id: number };
  };
  pathValues.webhookId = String((await made("/webhooks", { url: "http://127.0.0.1:9/hook", events: ["pet.created"] })).id);
  await made("/webhooks/{webhookId}/test", {});
  ({ headers: staffHeaders } = await staffSession());
  // An alert's token travels only by email: read back as the mail job reads it.
  const alertEmail = `boundaries-${Date.now()}@example.org`;
  await made("/alerts", { email: alertEmail, frequency: "daily", consent: true });
  pathValues.token = await tokenOf(alertEmail);
  pathValues.siteId = String(
    (await made("/listing-sites", { site: "petfinder", host: "127.0.0.1", port: 2121, username: "boundary", password: "secret-boundary", accountId: "AB123" }))
      .id,
  );
}, 60_000);

let probed = 0;

describe("every request rule the document states is the one the service enforces", () => {
  it("reads every operation of both documents", () => {
    // 60 when this was written (38 partner operations, 22 of the site's own); a route added joins by itself.
    expect(operations.length).toBeGreaterThanOrEqual(60);
  });

  it.each(operations.map((o) => [`${o.op.operationId} (${o.method.toUpperCase()} ${o.route})`, o] as const))(
    "%s",
    async (_, { route, method, op }) => {
      const base = baseline(op);
      const probes: { where: "query" | "body"; probe: Probe }[] = [];
      const unbuilt: string[] = [];
      for (const p of op.parameters ?? []) {
        if (p.in !== "query") continue;
        const out: Probe[] = [];
        probesFor(p.name, p.schema, Boolean(p.required), out, unbuilt);
        probes.push(...out.map((probe) => ({ where: "query" as const, probe })));
      }
      if (base.media) {
        const schema = deref(op.requestBody!.content[base.media]!.schema);
        for (const [name, prop] of Object.entries(schema.properties ?? {})) {
          const out: Probe[] = [];
          probesFor(name, prop, (schema.required ?? []).includes(name), out, unbuilt);
          probes.push(...out.map((probe) => ({ where: "body" as const, probe })));
        }
      }
      // An operation whose request has no query or body states no rule of this kind (its path's are invalid_path's).
      if (probes.length === 0) return;
      for (const [, name] of route.matchAll(/\{(\w+)\}/g)) await resolvePathParameter(route, name!);
      // Which key the operation takes: the organisation's, or (for what only the platform does) the platform's.
      let asKey = isSiteOnly(route, method) ? STAFF : key;
      if (asKey === key && (await send(route, method, clone(base), key)).status === 403) asKey = platformKey;

      const wrong: string[] = [];
      for (const { where, probe } of probes) {
        const shape = clone(base);
        const sent = probe.unique && typeof probe.value === "string" ? { ...probe, value: uniquely(probe.value, schemaAt(op, where, probe.field)) } : probe;
        const target = where === "query" ? shape.query : (shape.body as Record<string, unknown>);
        // A nested field's object as the document's examples fill it (one field may need another: `within` needs `near`).
        const parts = probe.field.split(".");
        let at: Record<string, unknown> = target;
        for (let i = 1; i < parts.length; i++) {
          at[parts[i - 1]!] ??= validValue(schemaAt(op, where, parts.slice(0, i).join(".")));
          at = at[parts[i - 1]!] as Record<string, unknown>;
        }
        setAt(target, probe.field, sent);
        if (PROSE_RULES[`${op.operationId} ${probe.field}`]) continue;
        const res = await send(route, method, shape, asKey);
        probed++;
        const named = res.status === 400 && names(res.fields, probe.field) && !(probe.expect === "taken" && WORLD_CODES.has(res.code));
        const ok = res.status < 500 && (probe.expect === "refused" ? named : !named);
        if (!ok)
          wrong.push(
            `${where} ${probe.field}: ${probe.why} (${JSON.stringify(sent.omit ? "left out" : sent.value).slice(0, 60)}) should be ${probe.expect}, got ${res.status} ${res.text}`,
          );
      }
      if (unbuilt.length) console.info(`${op.operationId}: values not built for ${unbuilt.join(", ")} (those probes skipped; the field's other bounds probed)`);
      expect(wrong).toEqual([]);
    },
    120_000,
  );

  it("sent hundreds of probes (a document the walk stopped understanding would pass empty)", () => {
    console.info(`document boundaries: ${probed} probes over ${operations.length} operations`);
    expect(probed).toBeGreaterThan(500);
  });
});
