import { isIP } from "node:net";
import { z } from "zod";

// The one reader of process.env. Everything else asks env() for a validated,
// typed value, so a misconfiguration fails loudly at boot with the variable's
// name instead of surfacing later as an odd runtime error.

const booleanFlag = z.enum(["1", "0", "true", "false", "yes", "no", "on", "off"]).transform((v) => ["1", "true", "yes", "on"].includes(v));

/** A comma-separated list of IP addresses and CIDR ranges ("127.0.0.0/8, 10.0.0.0/8, ::1"). */
const cidrList = z.string().refine(
  (value) =>
    value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .every((entry) => {
        const [address, bits, extra] = entry.split("/");
        const family = isIP(address ?? "");
        if (!family || extra !== undefined) return false;
        return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
      }),
  "must be a comma-separated list of IP addresses or CIDR ranges",
);

/** A comma-separated list of origins ("https://shelter.example, https://admin.example"), each normalised as browsers send it. */
const originList = z.string().transform((value, ctx) => {
  const origins: string[] = [];
  for (const entry of value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      const url = new URL(entry);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
      origins.push(url.origin);
    } catch {
      ctx.addIssue({ code: "custom", message: `"${entry}" is not an http(s) origin` });
      return z.NEVER;
    }
  }
  return origins;
});

/** Webhook retry delays in seconds, comma-separated ("5,300,1800"): the wait before each retry in turn. */
const retrySchedule = z.string().transform((value, ctx) => {
  const parts = value.split(",").map((s) => s.trim());
  if (parts.length > 50 || parts.some((p) => !/^[0-9]{1,7}$/.test(p) || Number(p) < 1)) {
    ctx.addIssue({ code: "custom", message: "must be 1 to 50 comma-separated whole numbers of seconds, each at least 1 (e.g. 5,300,1800)" });
    return z.NEVER;
  }
  return parts.map(Number);
});

/** About three days of retries: 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h (67.6 h in all). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = "5,300,1800,7200,18000,36000,36000,36000,36000,36000,36000";

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /** Set by the launcher to the embedded database when the operator leaves it unset. */
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /** Size of the Prisma connection pool per app instance (shared out among its workers). */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /**
     * PostgreSQL streaming replicas for reads (comma-separated URLs): the
     * list, the ?id= lookups, getPet, categories and the public pages read from
     * one that is up and within REPLICA_MAX_LAG_MS (lib/replicas.ts).
     */
    DATABASE_REPLICA_URL: z
      .string()
      .optional()
      .transform((s, ctx) => {
        const urls = (s ?? "")
          .split(",")
          .map((u) => u.trim())
          .filter(Boolean);
        for (const u of urls) {
          if (!/^postgres(ql)?:\/\/[^\s]+$/.test(u)) {
            ctx.addIssue({ code: "custom", message: "must be postgresql:// URLs, comma-separated" });
            return z.NEVER;
          }
        }
        return urls;
      }),
    /** A replica further behind than this is not read from (the primary is). */
    REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    /** Worker processes per instance (node:cluster); default one per core. */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** Address the HTTP server listens on. */
    HOST: z.string().min(1).default("0.0.0.0"),
    /**
     * Production base address of the API; its path ends in /v1 (spec, section
     * 1). Links in emails are built on its origin and nothing else (never on a
     * request's Host), so production with SMTP_URL requires it.
     */
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Staging base address of the API, listed as the second OpenAPI server. */
    STAGING_BASE_URL: z.url().optional(),
    /** "live" keys start pk_live_ (production); "test" keys start pk_test_ (staging). */
    API_KEY_MODE: z.enum(["live", "test"]).default("live"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** When set, rate-limit counters live in Redis instead of PostgreSQL. */
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    /** Believe X-Forwarded-For/-Proto/-Host (only behind a proxy you run, and only from TRUSTED_PROXIES). */
    TRUST_PROXY: booleanFlag.default(false),
    /** The proxies whose X-Forwarded-* headers are believed when TRUST_PROXY is on. */
    TRUSTED_PROXIES: cidrList.default("127.0.0.0/8,::1/128"),
    /** Further origins whose pages may send cookie-authenticated writes (besides the one addressed and PUBLIC_BASE_URL's). */
    ALLOWED_ORIGINS: originList.default([]),
    /**
     * Production cookies are Secure and named __Host-...; browsers keep such
     * cookies over plain HTTP only on loopback names. This switch drops both
     * for plain-HTTP use by another name (a LAN address, a test host).
     */
    INSECURE_COOKIES: booleanFlag.default(false),
    /** How long a stopping server lets in-flight requests finish before closing their connections. */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    /** Turns the limiter off; exists for the benchmark's on/off comparison only. */
    RATE_LIMIT_ENABLED: booleanFlag.default(true),
    /**
     * Signs anonymous adopter sessions (HMAC). Required in production; the
     * launcher keeps one under .data/ for the embedded database and `npm run dev`.
     */
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -base64 48`)").optional(),
    /**
     * Create the demo staff login (published in the README) when seeding, and
     * allow it in production. The launcher turns it on for the embedded
     * database and `npm run dev`; a real deployment leaves it off.
     */
    SEED_DEMO_STAFF: booleanFlag.default(false),
    /**
     * The name of the first organisation, the one a one-shelter install's data
     * lives in: applied by `db migrate` (the seed step) while that organisation
     * still has the name the migration gave it, "Petstore".
     */
    SHELTER_NAME: z.string().trim().min(1).max(200).optional(),
    /** The secret before the last rotation: tokens it signed stay valid until they expire. */
    SESSION_SECRET_PREVIOUS: z.string().min(32, "must be at least 32 characters").optional(),
    /** Seconds to wait before each webhook retry in turn; after the last, the delivery has failed. */
    WEBHOOK_RETRY_SCHEDULE: retrySchedule.default(retrySchedule.parse(DEFAULT_WEBHOOK_RETRY_SCHEDULE)),
    /**
     * Allow webhook endpoints on http:// and on private, loopback and
     * unique-local addresses. Off unless set, everywhere (development and the
     * embedded database included): any webhooks:manage key could otherwise make
     * the server call 127.0.0.1 or 10.x and read the answer in the deliveries
     * log. Link-local, unspecified, multicast and translated (NAT64 local-use,
     * 6to4, Teredo) addresses are refused regardless (lib/outbound/address-guard.ts).
     */
    WEBHOOK_ALLOW_PRIVATE: booleanFlag.default(false),
    /**
     * The quiet period after a change to a listed animal before its
     * organisation's listing sites get a new file: changes within it join the
     * same upload (docs/decisions/018-listing-uploads.md).
     */
    LISTINGS_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /** Seconds an FTP connection, login or any one transfer to a listing site may take before the upload fails. */
    LISTINGS_FTP_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
    /**
     * Seconds a whole upload to a listing site (connection, photos, files) may
     * take before it is stopped and counts as failed (retried as other
     * failures are): a slow server holds a job slot this long at most, not one
     * step's timeout per photo.
     */
    LISTINGS_UPLOAD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    /**
     * Seconds an import's run holds its lease without renewing it (it renews
     * every quarter of this): after a crash, the import is taken over or marked
     * failed this long after its process stopped, plus at most a minute (the
     * recover-long-work job, lib/imports/recovery.ts). Tests shorten it.
     */
    IMPORT_LEASE_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
    /**
     * The same switch for every outbound connection (webhooks, and the photos
     * an import fetches by URL): its current name. Unset: WEBHOOK_ALLOW_PRIVATE
     * decides (lib/outbound/switch.ts); set, it wins.
     */
    OUTBOUND_ALLOW_PRIVATE: booleanFlag.optional(),
    /**
     * Where photo files live: "postgres" (the default: every instance sees
     * them, and they are backed up with the data) or "s3" (any S3-compatible
     * object store, configured by the S3_* variables).
     */
    PHOTO_STORE: z.enum(["postgres", "s3"]).default("postgres"),
    /**
     * The nice value (0-19, higher yields more) of the process that resizes
     * photos (lib/photos/resizer.ts): while the machine is busy, requests come
     * first and uploads take longer. 0 makes uploads compete with requests as
     * equals (a machine with cores to spare).
     */
    PHOTO_RESIZER_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /**
     * Photos that may wait for the resizer, per server process, besides the
     * one it is making: each holds its upload's bytes (up to 15 MB) while it
     * waits. One more is refused at once with 503 and Retry-After.
     */
    PHOTO_RESIZER_QUEUE: z.coerce.number().int().min(1).max(1000).default(8),
    /**
     * The most memory (resident, MB) a resizer may use: one over it is stopped
     * and the photo it was making refused (422 image_too_large). Its V8 heap is
     * capped as well (128 MB) and libvips keeps no cache and one thread.
     */
    PHOTO_RESIZER_MEMORY_MB: z.coerce.number().int().min(64).max(65_536).default(512),
    /**
     * The bearer token Prometheus sends to scrape GET /metrics. Unset: there
     * is no /metrics (404). At least 32 characters: it guards what the service
     * says about its traffic.
     */
    METRICS_TOKEN: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -base64 48`)").optional(),
    /**
     * Where adoption emails go out (`smtp://host:port`, `smtps://user:pass@host`):
     * the applicant's confirmation and decisions, staff's daily digest. Unset:
     * nothing is sent, and the staff pages say so.
     */
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: z.string().min(3).default("Petstore <no-reply@petstore.invalid>"),
    /** Days after which closed (declined, withdrawn, cancelled) applications are anonymised. */
    APPLICATION_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
    /**
     * An address that takes unsubscribe requests by email
     * (`unsubscribe@shelter.example`): alerts' emails then name it in
     * List-Unsubscribe beside the one-click HTTPS URL, for mail clients that
     * only offer mailto. Unset: the HTTPS URL alone.
     */
    ALERTS_UNSUBSCRIBE_MAILTO: z.email("must be an email address, e.g. unsubscribe@shelter.example").optional(),
    /**
     * The origin photo URLs are built on (a CDN in front of /photos, say).
     * Unset: PUBLIC_BASE_URL's origin, else the origin each request used.
     */
    PHOTO_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    /** An S3-compatible endpoint (MinIO, R2, Ceph...); unset for AWS itself. */
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Address the bucket in the path (most self-hosted stores) rather than the host name. */
    S3_FORCE_PATH_STYLE: booleanFlag.default(false),
    /** Prefix of every object key, so one bucket can hold several deployments. */
    S3_PREFIX: z
      .string()
      .max(200)
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "may hold letters, digits and !_.*'()/- only")
      .default("photos/"),
  })
  .superRefine((value, ctx) => {
    if (value.PHOTO_STORE === "s3" && !value.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when PHOTO_STORE=s3" });
    }
    if (value.NODE_ENV === "production" && value.SMTP_URL && !value.PUBLIC_BASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_BASE_URL"],
        message:
          "is required in production when SMTP_URL is set: the links in emails (the applicant's private page, the staff inbox) are built on it, never on the Host a request names (e.g. https://api.shelter.example/v1)",
      });
    }
    if (value.NODE_ENV === "production" && !value.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is required in production: 32+ random characters (e.g. `openssl rand -base64 48`), the same on every instance",
      });
    }
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
