import { z } from "zod";

// The one reader of process.env. Everything else asks env() for a validated,
// typed value, so a misconfiguration fails loudly at boot with the variable's
// name instead of surfacing later as an odd runtime error.

const booleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Set by the launcher to the embedded database when the operator leaves it unset. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /** Size of the Prisma connection pool per app instance. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Production base address of the API; its path ends in /v1 (spec, section 1). */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Staging base address of the API, listed as the second OpenAPI server. */
  STAGING_BASE_URL: z.url().optional(),
  /** "live" keys start pk_live_ (production); "test" keys start pk_test_ (staging). */
  API_KEY_MODE: z.enum(["live", "test"]).default("live"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** When set, rate-limit counters live in Redis instead of PostgreSQL. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Trust X-Forwarded-For for the client address (only behind a proxy you run). */
  TRUST_PROXY: booleanFlag.default(false),
  /** Turns the limiter off; exists for the benchmark's on/off comparison only. */
  RATE_LIMIT_ENABLED: booleanFlag.default(true),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "unset" (a blank line in .env must not become "").
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment configuration:\n${problems}`);
  }
  return result.data;
}

/** Test hook: re-read process.env on the next env() call. */
export function resetEnvCache(): void {
  cached = undefined;
}

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The base address of the API for links and the OpenAPI document. */
export function publicBaseUrl(): string {
  const { PUBLIC_BASE_URL, PORT } = env();
  return (PUBLIC_BASE_URL ?? `http://localhost:${PORT}/v1`).replace(/\/+$/, "");
}
