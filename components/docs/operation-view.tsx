import { DocsTable } from "@/components/docs/docs-table";
import { constraints, typeLabel, type Schema } from "@/components/docs/schema-view";

// One operation of the OpenAPI document: method, path, parameters, body,
// responses with their headers.

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; headers?: Record<string, { description?: string }>; content?: Record<string, { schema?: Schema }> }>;
}

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-emerald-100 text-emerald-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-rose-100 text-rose-900",
};

export function OperationView({ method, path, op }: { method: string; path: string; op: Operation }) {
  const id = op.operationId ?? `${method}-${path}`;
  const mediaTypes = Object.keys(op.requestBody?.content ?? {});
  const body = mediaTypes.map((type) => op.requestBody?.content?.[type]?.schema).find(Boolean);
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
      <h3 id={`${id}-title`} className="flex flex-wrap items-center gap-2 text-lg font-semibold">
        <span className={`rounded px-2 py-0.5 font-mono text-sm uppercase ${METHOD_STYLE[method] ?? "bg-stone-100"}`}>{method}</span>
        <code className="break-all font-mono text-base">{path}</code>
        {op.deprecated && <span className="rounded bg-amber-100 px-2 py-0.5 text-sm text-amber-900">deprecated</span>}
      </h3>
      <p className="mt-1 text-stone-800">
        {op.summary} {op.operationId && <span className="font-mono text-sm text-stone-600">({op.operationId})</span>}
      </p>
      {op.description && <p className="mt-1 text-sm text-stone-700">{op.description}</p>}

      {op.parameters && op.parameters.length > 0 && (
        <>
          <h4 className="mt-3 text-sm font-semibold">Parameters</h4>
          <ul className="mt-1 space-y-1 text-sm">
            {op.parameters.map((p) => (
              <li key={`${p.in}-${p.name}`}>
                <code className="font-mono">{p.name}</code>{" "}
                <span className="text-stone-600">
                  ({p.in}, {typeLabel(p.schema)}
                  {p.required ? ", required" : ""})
                </span>
                {": "}
                {[p.description, ...(p.schema ? constraints(p.schema) : [])].filter(Boolean).join(". ")}
              </li>
            ))}
          </ul>
        </>
      )}

      {body && (
        <p className="mt-3 text-sm">
          <span className="font-semibold">Request body:</span> <code className="font-mono">{typeLabel(body)}</code> ({mediaTypes.join(" or ")})
        </p>
      )}

      <h4 className="mt-3 text-sm font-semibold">Responses</h4>
      <DocsTable columns={["Status", "Body", "Meaning"]} className="mt-1">
        {Object.entries(op.responses ?? {}).map(([status, response]) => (
          <tr key={status} className="border-b border-stone-100 align-top">
            <td className="py-1 pr-4 font-mono">{status}</td>
            <td className="py-1 pr-4 font-mono text-stone-700">{typeLabel(response.content?.["application/json"]?.schema) || "none"}</td>
            <td className="py-1 text-stone-700">
              {response.description}
              {response.headers && <span className="block text-xs text-stone-600">Headers: {Object.keys(response.headers).join(", ")}</span>}
            </td>
          </tr>
        ))}
      </DocsTable>
    </section>
  );
}
