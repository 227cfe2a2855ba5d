import { DocsTable } from "@/components/docs/docs-table";

// Renders a JSON Schema (as found in the OpenAPI document) as a readable
// field list. Server component: no JavaScript reaches the browser.

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  anyOf?: Schema[];
};

export function refName(ref: string): string {
  return ref.split("/").at(-1) ?? ref;
}

export function typeLabel(schema: Schema | undefined): string {
  if (!schema) return "";
  if (schema.$ref) return refName(schema.$ref);
  if (schema.anyOf) return schema.anyOf.map(typeLabel).join(" | ");
  if (schema.type === "array") return `array of ${typeLabel(schema.items)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  return schema.format ? `${type} (${schema.format})` : type;
}

export function constraints(schema: Schema): string[] {
  const out: string[] = [];
  if (schema.enum) out.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  if (schema.minimum !== undefined) out.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`max ${schema.maximum}`);
  if (schema.minLength !== undefined) out.push(`${schema.minLength}+ characters`);
  if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} characters`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

export function SchemaView({ name, schema }: { name: string; schema: Schema }) {
  const fields = Object.entries(schema.properties ?? {});
  return (
    <section aria-labelledby={`schema-${name}`} className="rounded-lg border border-stone-200 bg-white p-4">
      <h3 id={`schema-${name}`} className="font-mono text-base font-semibold">
        {name}
      </h3>
      {schema.description && <p className="mt-1 text-sm text-stone-700">{schema.description}</p>}
      {fields.length > 0 ? (
        <DocsTable columns={["Field", "Type", "Notes"]} className="mt-3">
          {fields.map(([field, fieldSchema]) => (
            <tr key={field} className="border-b border-stone-100 align-top">
              <td className="py-1 pr-4 font-mono">
                {field}
                {schema.required?.includes(field) && <span className="ml-1 text-xs text-rose-800">required</span>}
              </td>
              <td className="py-1 pr-4 font-mono text-stone-700">{typeLabel(fieldSchema)}</td>
              <td className="py-1 text-stone-700">{[fieldSchema.description, ...constraints(fieldSchema)].filter(Boolean).join(". ")}</td>
            </tr>
          ))}
        </DocsTable>
      ) : (
        <p className="mt-2 font-mono text-sm text-stone-700">
          {typeLabel(schema)} {constraints(schema).length ? `(${constraints(schema).join(", ")})` : ""}
        </p>
      )}
    </section>
  );
}

export type { Schema };
