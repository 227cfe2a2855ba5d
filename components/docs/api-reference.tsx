import { OperationView, type Operation } from "@/components/docs/operation-view";
import { SchemaView, type Schema } from "@/components/docs/schema-view";

// The API reference, rendered from the same document /v1/openapi.json
// serves, on the server: it cannot disagree with the contract, and needs no
// script (pages/docs.tsx serves it with none).

export interface ReferenceDocument {
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export function ApiReference({ doc }: { doc: ReferenceDocument }) {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-3xl font-bold">
          {doc.info.title} <span className="text-lg font-normal text-stone-600">v{doc.info.version}</span>
        </h1>
        <p className="mt-2 max-w-3xl text-stone-800">{doc.info.description}</p>
        <p className="mt-2 text-sm">
          Machine-readable:{" "}
          <a className="text-emerald-800 underline" href="/v1/openapi.json">
            /v1/openapi.json
          </a>{" "}
          (OpenAPI 3.1).
        </p>
      </header>

      <section aria-labelledby="start">
        <h2 id="start" className="text-xl font-semibold">
          Getting started
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-6 text-stone-800">
          <li>
            Base address{doc.servers && doc.servers.length > 1 ? "es" : ""}:{" "}
            {doc.servers?.map((s) => (
              <span key={s.url} className="mr-3">
                <code className="font-mono">{s.url}</code> ({s.description})
              </span>
            ))}
          </li>
          <li>
            Authenticate every request with <code className="font-mono">Authorization: Bearer &lt;API_KEY&gt;</code>. Shelter staff issue keys.
          </li>
          <li>
            Rate limits by plan (Free 60/min and 1,000/day, Pro 300/10,000, Business 1,000/100,000). Every response carries{" "}
            <code className="font-mono">X-RateLimit-Limit</code>, <code className="font-mono">X-RateLimit-Remaining</code> and{" "}
            <code className="font-mono">X-RateLimit-Reset</code>; a 429 carries <code className="font-mono">Retry-After</code> (seconds): wait that long, then
            back off exponentially.
          </li>
          <li>
            Errors are always <code className="font-mono">{"{ code, message, status }"}</code>; validation errors add <code className="font-mono">details</code>
            .
          </li>
          <li>
            Change an animal with <code className="font-mono">PATCH /pets/{"{petId}"}</code> and <code className="font-mono">If-Match</code> set to the{" "}
            <code className="font-mono">ETag</code> you read: a 412 means someone changed it first. Send an <code className="font-mono">Idempotency-Key</code>{" "}
            with <code className="font-mono">POST /pets</code> to retry a create safely.
          </li>
          <li>
            Hear about changes: read <code className="font-mono">GET /events?after=</code> from the last event id you saw (every change, in order, kept 30
            days), or register an endpoint with <code className="font-mono">POST /webhooks</code> (key scope <code className="font-mono">webhooks:manage</code>)
            and we POST each event to it, signed per{" "}
            <a className="text-emerald-800 underline" href="https://www.standardwebhooks.com/">
              Standard Webhooks
            </a>{" "}
            and retried for about three days.
          </li>
        </ul>
      </section>

      <section aria-labelledby="operations" className="space-y-4">
        <h2 id="operations" className="text-xl font-semibold">
          Operations
        </h2>
        {operations.map(({ path, method, op }) => (
          <OperationView key={`${method} ${path}`} method={method} path={path} op={op} />
        ))}
      </section>

      <section aria-labelledby="webhooks" className="space-y-4">
        <h2 id="webhooks" className="text-xl font-semibold">
          Webhooks: the requests we send you
        </h2>
        {Object.entries(doc.webhooks ?? {}).flatMap(([name, methods]) =>
          Object.entries(methods).map(([method, op]) => <OperationView key={`webhook ${name}`} method={method} path={name} op={op} />),
        )}
      </section>

      <section aria-labelledby="schemas" className="space-y-4">
        <h2 id="schemas" className="text-xl font-semibold">
          Schemas
        </h2>
        {Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) => (
          <SchemaView key={name} name={name} schema={schema} />
        ))}
      </section>
    </div>
  );
}
