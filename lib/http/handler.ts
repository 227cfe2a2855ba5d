import type { z } from "zod";
import { now as clockNow } from "@/lib/clock";
import { assertSameOrigin, resolveCaller } from "@/lib/http/auth";
import { type Caller } from "@/lib/sessions/caller";
import { clientUrl, hstsHeader } from "@/lib/core/client";
import { readJsonBody } from "@/lib/http/body";
import { readQuery } from "@/lib/http/query";
import { applyRateLimit, knownAllowed } from "@/lib/http/rate-limit";
import { ApiError, CLIENT_CLOSED_REQUEST, ClientClosedRequest, errorBody, toApiError, validationError } from "@/lib/core/errors";
import { noteWrite, withReadPolicy, wroteRecently } from "@/lib/replicas";
import { enforceTenant, tenantKind, type TenantKind, type TenantRule } from "@/lib/http/tenant";
import { COMMON_HEADERS, CORS_HEADERS, DEPRECATION, deprecationHeaders, preflightHeaders, requestIdOf } from "@/lib/http/headers";
import type { Scope } from "@/lib/keys/schemas";
import { logger } from "@/lib/log";

// The one wrapper every /v1 handler goes through. In order:
//   resolve the caller -> rate limit (a read whose answer is known to be
//   allowed runs beside it: lib/http/rate-limit.ts knownAllowed) -> sunset -> authenticate/authorise
//   -> validate the path -> tenancy (whose data: lib/http/tenant.ts)
//   -> validate query, body -> run -> render (errors included)
// Every response, error or not, leaves through the end of `withApi`, so every
// response carries the same headers. Handlers contain no try/catch.

type AnySchema = z.ZodType;
type Out<S> = S extends AnySchema ? z.infer<S> : undefined;

export interface ApiOptions<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined> {
  /** Scope the caller needs; null for answers given to anyone (404, 405). */
  scope: Scope | null;
  /** Whose data the route touches, and so who may call it (lib/http/tenant.ts). Required: no route goes without. */
  tenant: TenantRule<Out<P>>;
  params?: P;
  query?: Q;
  body?: B;
  /** Adds the deprecation headers and answers 410 from the sunset on. */
  deprecated?: boolean;
  /**
   * "always": apply the CSRF origin check to unsafe requests of every browser, signed in or not (sign-in, sign-out).
   * "never": no origin check even for a session cookie: a mail client's one-click unsubscribe (RFC 8058), whose
   * credential is the token in the path, not the cookie.
   */
  originCheck?: "always" | "never";
  /**
   * "count-only": the request counts and carries the headers, but is never
   * refused for the rate limit (sign-out: leaving must always work).
   */
  rateLimit?: "count-only";
  /** A deprecated operation's successor for this request's raw path parameters (default DEPRECATION.successor). */
  successor?: (params: Record<string, string | string[] | undefined>) => string | undefined;
}

export interface ApiContext<P, Q, B> {
  request: Request;
  params: P;
  query: Q;
  body: B;
  caller: Caller;
  requestId: string;
  now: Date;
  /** This request's URL as the client addressed it (lib/core/client.ts). */
  url: URL;
}

export interface ApiResult {
  status?: number;
  body?: unknown;
  /** Undefined values are left out, so a handler can name a header it may not need. */
  headers?: Record<string, string | undefined>;
  /** Bytes sent as they are (with the handler's Content-Type) instead of `body` as JSON: a file such as a listing feed. */
  raw?: Uint8Array;
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

function parseWith<S extends AnySchema>(schema: S, input: unknown, code: "invalid_path" | "invalid_query" | "invalid_body"): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(code, result.error, schema);
  return result.data;
}

function authorise(caller: Caller, scope: Scope): void {
  if (caller.kind === "anonymous") {
    const message =
      caller.credential === "missing"
        ? "Authentication required: send your API key as `Authorization: Bearer <API_KEY>`."
        : "The API key is invalid or has been revoked.";
    throw new ApiError(401, "unauthorized", message, undefined, { "WWW-Authenticate": 'Bearer realm="petstore"' });
  }
  if (!caller.scopes.includes(scope)) {
    const message =
      caller.kind === "session" && !caller.staff
        ? "Browsing sessions can only read. Staff sign in at /staff/sign-in to make changes."
        : `This ${caller.kind === "key" ? "API key" : "session"} lacks the "${scope}" scope this operation needs.`;
    throw new ApiError(403, "forbidden", message);
  }
}

export function withApi<P extends AnySchema | undefined = undefined, Q extends AnySchema | undefined = undefined, B extends AnySchema | undefined = undefined>(
  options: ApiOptions<P, Q, B>,
  handler: (ctx: ApiContext<Out<P>, Out<Q>, Out<B>>) => Promise<ApiResult> | ApiResult,
) {
  const apiRoute = async function apiRoute(request: Request, context: RouteContext): Promise<Response> {
    const started = performance.now();
    const requestId = requestIdOf(request.headers.get("x-request-id"));
    const now = clockNow();
    const url = clientUrl(request);
    // A plain record, turned into the response's Headers once at the end:
    // undici validates every Headers.set, and a response carries a dozen.
    // Vary: the answer depends on who calls (a key, a session cookie: their
    // scopes and their rate-limit headers), and on nothing else a cache could
    // see; CORS never varies (Access-Control-Allow-Origin is always *), so
    // Origin is not named. lib/server/vary.ts keeps Next's router headers out.
    const headers: Record<string, string> = {
      ...COMMON_HEADERS,
      ...CORS_HEADERS,
      ...hstsHeader(url.origin),
      Vary: "Authorization, Cookie",
      "X-Request-Id": requestId,
    };
    const successor = (options.deprecated && options.successor?.(await context.params)) || DEPRECATION.successor;
    if (options.deprecated) Object.assign(headers, deprecationHeaders({ ...DEPRECATION, successor }));

    let status = 500;
    let payload: unknown;
    let raw: Uint8Array | undefined;
    let caller: Caller | undefined;
    try {
      caller = await resolveCaller(request, now);
      const who = caller;

      // Asked before this request's own hit is in flight (it counts as one coming).
      const alongside = SAFE_METHODS.has(request.method) && knownAllowed(who, now);
      // Every request counts, whatever its answer; the headers go on every response.
      const limited = applyRateLimit(who, now).then((limit) => {
        Object.assign(headers, limit.headers);
        if (limit.error && !(options.rateLimit === "count-only" && limit.error.code === "rate_limited")) throw limit.error;
      });

      const run = async (): Promise<ApiResult> => {
        if (options.deprecated && now >= DEPRECATION.sunset) {
          throw new ApiError(410, "gone", `This operation was removed on ${DEPRECATION.sunset.toUTCString()}. Use GET ${successor} instead.`);
        }
        if (options.originCheck !== "never") assertSameOrigin(request, who, options.originCheck === "always");
        if (options.scope) authorise(who, options.scope);

        const params = options.params ? parseWith(options.params, await context.params, "invalid_path") : undefined;
        // Before the query and body are even read: another organisation's
        // caller learns nothing from them, and nothing is changed; a path
        // naming nothing is 404 now, not once the body has arrived (by then
        // another organisation may have created that id).
        await enforceTenant(options.tenant, who, params as Out<P>);
        const query = options.query ? parseWith(options.query, readQuery(url), "invalid_query") : undefined;
        const body = options.body ? parseWith(options.body, await readJsonBody(request), "invalid_body") : undefined;

        // Where its reads may go (lib/replicas.ts): a replica only for a read
        // by a caller that changed nothing in the last few seconds.
        const primary = !SAFE_METHODS.has(request.method) || (await wroteRecently(who.rateKey, now));
        return withReadPolicy({ primary }, () =>
          handler({
            request,
            params: params as Out<P>,
            query: query as Out<Q>,
            body: body as Out<B>,
            caller: who,
            requestId,
            now,
            url,
          }),
        );
      };

      let result: ApiResult;
      if (alongside) {
        // A read changes nothing, so when the limiter's answer is known to be
        // "allowed" it runs while the counter is hit (two round trips at once
        // instead of one after the other); the verdict still decides the answer.
        const [verdict, outcome] = await Promise.allSettled([limited, run()]);
        if (verdict.status === "rejected") throw verdict.reason;
        if (outcome.status === "rejected") throw outcome.reason;
        result = outcome.value;
      } else {
        // A write waits for the limiter: nothing may change for a refused
        // request. So does a read by a banned key, by a caller known to be over
        // a limit, or by one this process has not heard of today: a refused
        // request costs no work (a ten-year report, a near search).
        await limited;
        result = await run();
        // The caller reads its own change next, from the primary, on any instance.
        if (!SAFE_METHODS.has(request.method) && (result.status ?? 200) < 400) await noteWrite(who.rateKey, now);
      }
      status = result.status ?? 200;
      payload = result.body;
      raw = result.raw;
      for (const [k, v] of Object.entries(result.headers ?? {})) if (v !== undefined) headers[k] = v;
    } catch (thrown) {
      if (thrown instanceof ClientClosedRequest) {
        // The client went away mid-body (a phone losing its signal, a load
        // generator dropping its connections): no failure of ours nor of a
        // dependency, and nobody is left to answer. 499 as nginx logs it (the
        // server's metrics count it so too: lib/server/metrics.ts), never a
        // 503 nor a warning that would page an operator.
        logger().info({ requestId, method: request.method, path: logPath(url), reason: unavailableReason(thrown.cause) }, "client closed request");
        status = CLIENT_CLOSED_REQUEST;
      } else {
        const error = toApiError(thrown);
        if (error.status === 503) {
          // Expected while a dependency is away, and then on every request:
          // one short line each, not a stack.
          logger().warn({ requestId, method: request.method, path: logPath(url), reason: unavailableReason(thrown) }, "dependency unavailable");
        } else if (error.status >= 500) {
          logger().error({ err: thrown, requestId, method: request.method, path: logPath(url) }, "request failed");
        }
        status = error.status;
        payload = errorBody(error);
        Object.assign(headers, error.headers);
      }
    }

    logger().info(
      {
        requestId,
        method: request.method,
        path: logPath(url),
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        caller: caller?.rateKey,
      },
      "request",
    );
    if (raw !== undefined) return new Response(new Uint8Array(raw), { status, headers });
    if (payload === undefined) return new Response(null, { status, headers });
    headers["Content-Type"] = "application/json";
    return new Response(JSON.stringify(payload), { status, headers });
  };
  // What the route declared, for tests that hold every route to its rules.
  return Object.assign(apiRoute, {
    declared: { scope: options.scope, tenant: tenantKind(options.tenant as TenantRule<unknown>), body: options.body } as RouteDeclaration,
  });
}

export interface RouteDeclaration {
  scope: Scope | null;
  tenant: TenantKind;
  /** The 405 answer of a method the route does not implement. */
  refusesMethod?: boolean;
  /** The JSON body's schema, if the route takes one (every object in it refuses unknown fields: tests/api/unknown-fields.test.ts). */
  body?: AnySchema;
}

/** Paths are logged bounded: a client can send a 16 kB one, and every line would carry it. */
/** An application's or an alert's private link is a credential: its token never reaches a log line. */
const APPLICATION_TOKEN = /(\/(?:application-links|alerts)\/)[^/]+/;

function logPath(url: URL): string {
  const path = url.pathname.replace(APPLICATION_TOKEN, "$1[redacted]");
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/** A word on why a dependency failed, for the log: its code, or the start of its message. */
function unavailableReason(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const r = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof r.code === "string" && r.code !== "service_unavailable") return r.code;
    if (!r.cause && typeof r.message === "string") return r.message.trim().split("\n").at(-1)!.slice(0, 120);
    e = r.cause;
  }
  return "unknown";
}

/** Answers for the methods a route does not implement, and CORS preflight. */
export function otherMethods(allowed: string[]) {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed = withApi({ scope: null, tenant: "public" }, ({ request }) => {
    throw new ApiError(405, "method_not_allowed", `${request.method} is not allowed here. Allowed: ${allow}.`, undefined, { Allow: allow });
  });
  notAllowed.declared.refusesMethod = true;
  // Preflight carries no credentials and is not counted: browsers send it on
  // their own before the real request, which is counted.
  const OPTIONS = async (request: Request) =>
    new Response(null, {
      status: 204,
      headers: { ...preflightHeaders(allowed), ...COMMON_HEADERS, Allow: allow, "X-Request-Id": requestIdOf(request.headers.get("x-request-id")) },
    });
  const all = { GET: notAllowed, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed, OPTIONS };
  for (const method of allowed) delete all[method as keyof typeof all];
  return all;
}
