#!/usr/bin/env node
// @ts-check
/**
 * Stand-in for Prisma's native `schema-engine` binary, backed by Prisma's own
 * WebAssembly build of the engine (`@prisma/schema-engine-wasm`) and the
 * `@prisma/adapter-pg` driver adapter.
 *
 * WHY: the prisma CLI downloads the native engine from binaries.prisma.sh the
 * first time it needs it, and that host is unreachable here. The CLI runs
 * whatever executable `PRISMA_SCHEMA_ENGINE_BINARY` names (set in
 * prisma.config.ts), so this script speaks the binary's protocol and forwards
 * every call to the Wasm engine. See docs/decisions/001-prisma-wasm-schema-engine.md.
 *
 * Protocol (what node_modules/prisma/build/cli.js expects from the binary):
 *   schema-engine --version
 *       -> one version line on stdout.
 *   schema-engine --datasource '{"url":…}' cli can-connect-to-database
 *   schema-engine --datasource '{"url":…}' cli create-database
 *       -> one-shot calls. Exit 0 on success. On failure exit 1 and write JSON
 *          log lines to stderr; the CLI skips the first stderr line and looks
 *          for {"level":"ERROR","target":"schema_engine::logger",
 *          "fields":{"error_code":"P1003","message":…}} (P1003 = "database does
 *          not exist" makes `migrate dev` create the database).
 *   schema-engine [--datamodels <file>]… [--datasource <json>] …
 *       -> JSON-RPC 2.0 server: one JSON object per line on stdin, answers on
 *          stdout. Method names equal the Wasm SchemaEngine's methods. The
 *          engine can also ask the CLI to `print` text (used for
 *          `migrate diff` output).
 *
 * stdout carries protocol messages only; every log line goes to stderr as a
 * JSON object in the binary's format, with database passwords redacted.
 *
 * Plain JavaScript on purpose: the CLI executes this file directly, nothing
 * compiles it, and nothing may rely on an npm install script.
 */

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";

// ---------------------------------------------------------------------------
// Logging (stderr only, JSON lines like the native binary, secrets redacted)
// ---------------------------------------------------------------------------

/** Strings that must never reach a log line (passwords, full URLs). */
const secrets = new Set();

/** @param {string | undefined | null} url */
function registerSecretsOf(url) {
  if (!url) return;
  secrets.add(url);
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      secrets.add(parsed.password);
      secrets.add(decodeURIComponent(parsed.password));
    }
    const queryPassword = parsed.searchParams.get("password");
    if (queryPassword) secrets.add(queryPassword);
  } catch {
    // Not a URL: the whole string is already registered.
  }
}

/** @param {string} text */
function redact(text) {
  let out = text;
  // Longest first, so a URL is replaced before the password inside it.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3) out = out.split(secret).join("<REDACTED>");
  }
  // Belt and braces: credentials in any URL we did not know about.
  return out.replace(/(postgres(?:ql)?:\/\/[^:/?#@\s]*:)[^@\s]*@/gi, "$1<REDACTED>@");
}

// Like the binary: DEBUG lines only with RUST_LOG=debug (the CLI sets "info").
const debugEnabled = /\b(debug|trace)\b/i.test(process.env.RUST_LOG ?? "");

/**
 * @param {"ERROR" | "WARN" | "INFO" | "DEBUG"} level
 * @param {string} message
 * @param {Record<string, unknown>} [fields]
 * @param {string} [target]
 */
function log(level, message, fields = {}, target = "schema_engine_wasm_shim") {
  if (level === "DEBUG" && !debugEnabled) return;
  const line = JSON.stringify({
    timestamp: new Date().toISOString(),
    level,
    // Redacted before and after serialising: JSON escaping could hide a
    // password containing quotes or backslashes from the second pass.
    fields: { message: redact(message), ...fields },
    target,
  });
  process.stderr.write(redact(line) + "\n");
}

// Node prints warnings (e.g. pg's sslmode notice) as plain text on stderr.
// The CLI parses the one-shot commands' stderr as JSON lines and fails on
// anything else, so route warnings through the JSON logger instead.
process.removeAllListeners("warning");
process.on("warning", (warning) => log("WARN", `${warning.name}: ${warning.message}`));

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

/**
 * @typedef {{ url?: string, shadowDatabaseUrl?: string }} Datasource
 * @typedef {{
 *   version: boolean,
 *   help: boolean,
 *   datamodels: string[],
 *   datasource: Datasource,
 *   cliCommand: string | undefined,
 *   ignored: string[],
 * }} Args
 */

/** @param {string[]} argv @returns {Args} */
function parseArgs(argv) {
  /** @type {Args} */
  const args = {
    version: false,
    help: false,
    datamodels: [],
    datasource: {},
    cliCommand: undefined,
    ignored: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case "--version":
      case "-V":
        args.version = true;
        break;
      case "--help":
      case "-h":
        args.help = true;
        break;
      case "--datamodels":
        args.datamodels.push(argv[++i]);
        break;
      case "--datasource":
        // prisma.config.ts `datasource`, serialised by the CLI:
        // {"url": "...", "shadowDatabaseUrl": "..."}.
        args.datasource = JSON.parse(argv[++i]);
        break;
      case "--enabled-preview-features":
      case "--extension-types":
        // The Wasm engine's constructor has no such options; accepted so the
        // CLI's invocation does not fail, and reported in the debug log.
        args.ignored.push(arg);
        i++;
        break;
      case "cli":
        args.cliCommand = argv[++i];
        break;
      default:
        args.ignored.push(arg);
    }
  }
  return args;
}

// ---------------------------------------------------------------------------
// Connection settings
// ---------------------------------------------------------------------------

// pg's own URL parser (a dependency of pg, resolved through pg so the version
// matches): handles sslmode/sslcert/unix sockets the same way the app's
// runtime PrismaPg connection does.
const requireFromPg = createRequire(createRequire(import.meta.url).resolve("pg"));
/** @type {(url: string) => Record<string, any>} */
const parsePgUrl = requireFromPg("pg-connection-string").parse;

/** URL query parameters that mean something to Prisma but not to pg. */
const PRISMA_ONLY_PARAMS = [
  "schema",
  "connection_limit",
  "pool_timeout",
  "connect_timeout",
  "socket_timeout",
  "pgbouncer",
  "statement_cache_size",
  "sslaccept",
  "sslidentity",
  "sslpassword",
  "max_connections",
  "max_idle_connection_lifetime",
];

/**
 * `"char"` (oid 18) is the type of pg_constraint.contype, which the engine
 * reads during schema inspection (every diff, `migrate dev`, `db push`).
 * adapter-pg has no column-type mapping for it and fails the whole query
 * with "Column type 'char' could not be deserialized". Its values arrive as
 * one-character strings already, so it is enough to report the column as
 * `text` (oid 25) before adapter-pg looks at the field list. Done in a
 * pg.Client subclass handed to the pool, so no global pg state is touched.
 */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/** @param {any} result */
function relabelCharColumns(result) {
  for (const res of Array.isArray(result) ? result : [result]) {
    for (const field of res?.fields ?? []) {
      if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    }
  }
  return result;
}

class CharAsTextClient extends pg.Client {
  /** @param {any} config @param {any} [values] @param {any} [callback] @returns {any} */
  query(config, values, callback) {
    // Streams/cursors (submittables) are passed through; adapter-pg does not use them.
    if (config && typeof config.submit === "function") {
      return super.query(config, values, callback);
    }
    if (typeof values === "function") {
      callback = values;
      values = undefined;
    }
    if (typeof callback === "function") {
      const cb = callback;
      return super.query(config, values, (/** @type {any} */ err, /** @type {any} */ res) => cb(err, err ? res : relabelCharColumns(res)));
    }
    return super.query(config, values).then(relabelCharColumns);
  }
}

/**
 * @typedef {{ pool: Record<string, any>, schema: string | undefined, label: string }} PgSettings
 */

/**
 * Turns a Prisma connection URL into pg pool settings.
 *
 * Discrete host/user/password/database fields are passed on purpose, not a
 * connection string and not a pg.Pool:
 *  - a `connectionString` wins over every other field in pg, so the
 *    `{ ...config, database: shadowName }` a shadow database needs would be
 *    silently ignored and the shadow migrations would run on the main db;
 *  - a pg.Pool handed to PrismaPg loses its password when adapter-pg copies
 *    `pool.options` for the shadow database connection.
 *
 * @param {string} url
 * @returns {PgSettings}
 */
function pgSettingsFromUrl(url) {
  registerSecretsOf(url);
  const parsed = parsePgUrl(url);
  const schema = parsed.schema || undefined;
  const connectTimeoutSeconds = Number(parsed.connect_timeout ?? 5);
  for (const key of PRISMA_ONLY_PARAMS) delete parsed[key];
  /** @type {Record<string, any>} */
  const pool = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== null && value !== undefined && value !== "") pool[key] = value;
  }
  if (pool.port) pool.port = Number(pool.port);
  // Same default as the native engine (connect_timeout=5): an unreachable
  // host fails fast instead of hanging on the TCP timeout.
  if (connectTimeoutSeconds > 0) pool.connectionTimeoutMillis = connectTimeoutSeconds * 1000;
  if (schema) {
    // The native engine puts `?schema=` on the search_path; do the same so
    // migration SQL without a schema prefix lands in that schema.
    const searchPath = `-c search_path=${quoteOptionValue(quoteIdent(schema))}`;
    pool.options = pool.options ? `${pool.options} ${searchPath}` : searchPath;
  }
  pool.Client = CharAsTextClient;
  const host = pool.host || "localhost";
  const label = `${host}${pool.port ? `:${pool.port}` : ""}`;
  return { pool, schema, label };
}

/** @param {string} name */
function quoteIdent(name) {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Escapes a value for PostgreSQL's `options` startup parameter. @param {string} value */
function quoteOptionValue(value) {
  return value.replace(/\\/g, "\\\\").replace(/ /g, "\\ ");
}

/** @param {Datasource} datasource */
function resolveUrls(datasource) {
  // The CLI passes prisma.config.ts's datasource; DATABASE_URL is the fallback
  // when it passes none (e.g. a config without a datasource block).
  const url = datasource.url || process.env.DATABASE_URL || undefined;
  const shadowDatabaseUrl = datasource.shadowDatabaseUrl || process.env.SHADOW_DATABASE_URL || undefined;
  registerSecretsOf(url);
  registerSecretsOf(shadowDatabaseUrl);
  return { url, shadowDatabaseUrl };
}

const NO_URL_MESSAGE = "No database URL: set `datasource.url` in prisma.config.ts or the DATABASE_URL environment variable.";

// ---------------------------------------------------------------------------
// Driver adapter
// ---------------------------------------------------------------------------

/** Shadow databases this process created and has not dropped yet. */
const pendingShadowDatabases = new Map();

/** @type {unknown} The last failure to provide a shadow database. */
let lastShadowDbError;

/**
 * adapter-pg, with the fixes the schema engine needs.
 */
class MigrationPg extends PrismaPg {
  /**
   * @param {PgSettings} settings
   * @param {PgSettings | undefined} shadowSettings user-provided shadow database
   */
  constructor(settings, shadowSettings) {
    super(settings.pool, settings.schema ? { schema: settings.schema } : undefined);
    this.settings = settings;
    this.shadowSettings = shadowSettings;
  }

  async connect() {
    const adapter = await super.connect();
    /**
     * adapter-pg's executeScript splits the script on `;` and runs the pieces
     * one by one. A `;` inside a comment, a string or a `$$` function body
     * breaks the migration, and a failing statement leaves the statements
     * before it applied. Send the whole script as ONE simple query instead,
     * exactly like the native engine: PostgreSQL runs a multi-statement
     * simple query in a single implicit transaction, so a migration applies
     * completely or not at all (unless it manages transactions itself).
     */
    adapter.executeScript = async (/** @type {string} */ script) => {
      try {
        await adapter.underlyingDriver().query(script);
      } catch (error) {
        // adapter-pg's own mapping to Prisma's driver-adapter error kinds.
        /** @type {any} */ (adapter).onError(error);
      }
    };
    return adapter;
  }

  async connectToShadowDb() {
    try {
      return await this.openShadowDb();
    } catch (error) {
      // diagnoseMigrationHistory swallows shadow database failures; keep the
      // reason so withShadowSchema can report it instead of the engine's vague
      // "shadow DB must be provided through an external factory".
      lastShadowDbError = error;
      throw error;
    }
  }

  async openShadowDb() {
    if (this.shadowSettings) {
      // prisma.config.ts set `shadowDatabaseUrl`. The native engine empties
      // that database before replaying the migrations into it; the Wasm
      // engine does not (it expects a fresh database from this factory), so
      // reset its schema here, as the native engine does.
      // The reset drops a whole schema, so first make sure the URL does not
      // point at the main database under another name (localhost vs
      // 127.0.0.1, a DNS alias, ...): compare what the servers report, not
      // the URL strings.
      const [main, shadowIdentity] = await Promise.all([databaseIdentity(this.settings), databaseIdentity(this.shadowSettings)]);
      if (main === shadowIdentity) {
        throw new Error("The shadow database you configured appears to be the same as the main database. Please specify another shadow database.");
      }
      const shadow = await new MigrationPg(this.shadowSettings, undefined).connect();
      const schema = quoteIdent(this.shadowSettings.schema ?? "public");
      await shadow.executeScript(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema};`);
      return shadow;
    }
    /**
     * adapter-pg's own helper creates a throw-away database, but on dispose
     * it runs DROP DATABASE before closing the shadow pool, which fails with
     * "database … is being accessed by other users" and leaks one database
     * per `migrate dev`. It also never closes the connection it used to
     * create the database. Here: close the shadow pool first, then drop.
     */
    const admin = await this.connect();
    const database = `prisma_migrate_shadow_db_${randomUUID()}`;
    await admin.executeScript(`CREATE DATABASE ${quoteIdent(database)}`);
    pendingShadowDatabases.set(database, admin);
    log("INFO", `Created shadow database ${database}`);
    /** @type {PgSettings} */
    const shadowSettings = {
      ...this.settings,
      pool: { ...this.settings.pool, database },
    };
    let shadow;
    try {
      shadow = await new MigrationPg(shadowSettings, undefined).connect();
    } catch (error) {
      await dropShadowDatabase(database);
      throw error;
    }
    const closeShadowPool = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await closeShadowPool();
      await dropShadowDatabase(database);
    };
    return shadow;
  }
}

/**
 * Identifies a database on a running server: same server process (start time
 * to the microsecond) and same database name.
 * @param {PgSettings} settings
 */
async function databaseIdentity(settings) {
  const rows = await queryOnce(settings.pool, "SELECT pg_postmaster_start_time()::text AS started, current_database() AS db");
  return `${rows[0].started}|${rows[0].db}`;
}

/**
 * @param {string} database
 * @param {{ force?: boolean }} [options] force: also end sessions still using it
 */
async function dropShadowDatabase(database, { force = false } = {}) {
  const admin = pendingShadowDatabases.get(database);
  if (!admin) return;
  pendingShadowDatabases.delete(database);
  const drop = `DROP DATABASE IF EXISTS ${quoteIdent(database)}`;
  try {
    if (force) {
      // WITH (FORCE) needs PostgreSQL 13+; fall back to a plain DROP before that.
      await admin.executeScript(`${drop} WITH (FORCE)`).catch(() => admin.executeScript(drop));
    } else {
      await admin.executeScript(drop);
    }
    log("INFO", `Dropped shadow database ${database}`);
  } finally {
    await admin.dispose();
  }
}

/**
 * Best effort, for shutdown paths (stdin closed, SIGTERM/SIGINT, panic):
 * never leave shadow databases behind, even if the engine was stopped in
 * the middle of a command and its shadow pool is still connected.
 */
async function dropPendingShadowDatabases() {
  for (const database of [...pendingShadowDatabases.keys()]) {
    try {
      await dropShadowDatabase(database, { force: true });
    } catch (error) {
      log("WARN", `Could not drop shadow database ${database}: ${errorMessage(error)}`);
    }
  }
}

// ---------------------------------------------------------------------------
// Wasm engine
// ---------------------------------------------------------------------------

/**
 * The Wasm glue calls `global.PRISMA_WASM_PANIC_REGISTRY.set_message()` from
 * Rust's panic hook; a Wasm panic itself only surfaces as
 * `RuntimeError: unreachable`, so this is where the real message is kept.
 */
class WasmPanicRegistry {
  message = "";
  get() {
    return this.message;
  }
  /** @param {string} message */
  set_message(message) {
    this.message = `RuntimeError: ${message}`;
  }
}

/** @param {unknown} error */
function isWasmPanic(error) {
  return error instanceof Error && error.name === "RuntimeError";
}

/** @type {Promise<any> | undefined} */
let wasmModulePromise;

/**
 * Instantiates schema_engine_bg.wasm with the package's JS glue. The package
 * entry point uses `import * as wasm from "….wasm"` (ESM integration for
 * Wasm), which plain Node does not support, so wire it by hand: create the
 * instance, hand its exports to the glue and run the Rust start function.
 */
function loadWasmModule() {
  wasmModulePromise ??= (async () => {
    /** @type {any} */ (globalThis).PRISMA_WASM_PANIC_REGISTRY = new WasmPanicRegistry();
    const gluePath = fileURLToPath(import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
    const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = readFileSync(gluePath.replace(/\.js$/, ".wasm"));
    const wasmModule = new WebAssembly.Module(bytes);
    const instance = new WebAssembly.Instance(wasmModule, { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    /** @type {any} */ (instance.exports).__wbindgen_start();
    return glue;
  })();
  return wasmModulePromise;
}

/**
 * @param {Args} args
 * @returns {Promise<{ engine: any, adapterFactory: any }>}
 */
async function createEngine(args) {
  const glue = await loadWasmModule();
  const { url, shadowDatabaseUrl } = resolveUrls(args.datasource);
  if (!url) throw new Error(NO_URL_MESSAGE);
  const settings = pgSettingsFromUrl(url);
  const shadowSettings = shadowDatabaseUrl ? pgSettingsFromUrl(shadowDatabaseUrl) : undefined;
  // The engine reports adapter failures that are not Postgres errors as
  // "External error id#N"; the bound factory's errorRegistry holds the
  // originals (see expandExternalErrors).
  const adapterFactory = bindMigrationAwareSqlAdapterFactory(new MigrationPg(settings, shadowSettings));
  const datamodels = args.datamodels.map((path) => [path, readFileSync(path, "utf8")]);
  const engine = await glue.SchemaEngine.new(
    // `undefined`, never `[]`: the engine panics on an empty datamodel list.
    { datamodels: datamodels.length > 0 ? datamodels : undefined },
    (/** @type {string} */ line) => forwardEngineLog(line),
    adapterFactory,
  );
  return { engine, adapterFactory };
}

/** Engine log lines are already JSON in the binary's format. @param {unknown} line */
function forwardEngineLog(line) {
  const text = String(line).trimEnd();
  if (!text) return;
  process.stderr.write(redact(text) + "\n");
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/** @param {unknown} error */
function errorMessage(error) {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "message" in error) return String(error.message);
  return String(error);
}

/**
 * Replaces "External error id#N" with the error the adapter actually threw.
 * @param {string} message @param {any} adapterFactory
 */
function expandExternalErrors(message, adapterFactory) {
  if (!adapterFactory) return message;
  return message.replace(/External error id#(\d+)/g, (match, id) => {
    const entry = adapterFactory.errorRegistry.consumeError(Number(id));
    return entry ? `${errorMessage(entry.error)} (${match})` : match;
  });
}

/**
 * Maps an engine rejection to the JSON-RPC error object the CLI understands
 * (same shape as the native binary's: `data.error_code` for Prisma's P-codes,
 * `data.is_panic` for crashes).
 * @param {unknown} error @param {any} adapterFactory
 */
function toRpcError(error, adapterFactory) {
  if (isWasmPanic(error)) {
    const registry = /** @type {WasmPanicRegistry | undefined} */ (/** @type {any} */ (globalThis).PRISMA_WASM_PANIC_REGISTRY);
    const message = registry?.get() || errorMessage(error);
    return {
      code: 4466,
      message,
      data: { is_panic: true, message, backtrace: (error instanceof Error && error.stack) || null },
    };
  }
  const message = redact(expandExternalErrors(errorMessage(error), adapterFactory));
  /** @type {Record<string, unknown>} */
  const data = { is_panic: false, message, backtrace: null };
  const code = error && typeof error === "object" && "code" in error ? error.code : undefined;
  if (typeof code === "string" && /^P\d{4}$/.test(code)) {
    data.error_code = code;
    data.meta = /** @type {any} */ (error).meta ?? null;
  }
  return { code: 4466, message: "An error happened. Check the data field for details.", data };
}

// ---------------------------------------------------------------------------
// One-shot commands: cli can-connect-to-database / cli create-database
// ---------------------------------------------------------------------------

/**
 * Maps a pg connection error to the Prisma error the native engine reports.
 * @param {any} error @param {PgSettings} settings
 * @returns {{ code: string | undefined, message: string }}
 */
function connectionError(error, settings) {
  const database = settings.pool.database ?? settings.pool.user ?? "";
  switch (error?.code) {
    case "3D000":
      return {
        code: "P1003",
        message: `Database \`${database}\` does not exist on the database server at \`${settings.label}\`.`,
      };
    case "28P01":
    case "28000":
      return {
        code: "P1000",
        message: `Authentication failed against database server, the provided database credentials for \`${settings.pool.user ?? ""}\` are not valid.\n\nPlease make sure to provide valid database credentials for the database server at \`${settings.label}\`.`,
      };
    case "42P04":
      return {
        code: "P1009",
        message: `Database \`${database}\` already exists on the database server at \`${settings.label}\``,
      };
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ECONNRESET":
      return {
        code: "P1001",
        message: `Can't reach database server at \`${settings.label}\`\n\nPlease make sure your database server is running at \`${settings.label}\`.`,
      };
    case "EPROTO":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return { code: "P1011", message: `Error opening a TLS connection: ${errorMessage(error)}` };
    case "ETIMEDOUT":
      return { code: "P1002", message: `The database server at \`${settings.label}\` was reached but timed out.` };
    default:
      if (/\b(SSL|TLS)\b/.test(errorMessage(error))) {
        return { code: "P1011", message: `Error opening a TLS connection: ${errorMessage(error)}` };
      }
      if (/timeout/i.test(errorMessage(error))) {
        return {
          code: "P1001",
          message: `Can't reach database server at \`${settings.label}\`\n\nPlease make sure your database server is running at \`${settings.label}\`.`,
        };
      }
      return { code: undefined, message: errorMessage(error) };
  }
}

/**
 * Runs one statement on a short-lived connection.
 * @param {Record<string, any>} poolConfig @param {string} sql
 * @returns {Promise<any[]>} rows
 */
async function queryOnce(poolConfig, sql) {
  // A plain client: these statements read no "char" columns.
  const clientConfig = { ...poolConfig };
  delete clientConfig.Client;
  const client = new pg.Client(clientConfig);
  try {
    await client.connect();
    return (await client.query(sql)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** @param {string} url @returns {Promise<string>} the database name */
async function createDatabase(url) {
  const settings = pgSettingsFromUrl(url);
  const database = settings.pool.database ?? settings.pool.user;
  if (!database) throw new Error("The database URL names no database to create.");
  // CREATE DATABASE needs a connection to some other database on the server;
  // the native engine uses `postgres`, then `template1`.
  let lastError;
  for (const maintenanceDb of ["postgres", "template1"]) {
    try {
      await queryOnce({ ...settings.pool, database: maintenanceDb }, `CREATE DATABASE ${quoteIdent(database)}`);
      return database;
    } catch (error) {
      lastError = error;
      if (/** @type {any} */ (error)?.code !== "3D000") break;
    }
  }
  throw Object.assign(new Error(errorMessage(lastError)), { prismaError: connectionError(lastError, settings) });
}

/** @param {Args} args */
async function runCliCommand(args) {
  // The CLI skips the first stderr line of a failed one-shot call.
  log("INFO", `Starting schema engine (Wasm) for cli ${args.cliCommand}`);
  const { url } = resolveUrls(args.datasource);
  try {
    if (!url) throw Object.assign(new Error(NO_URL_MESSAGE), { prismaError: { code: undefined, message: NO_URL_MESSAGE } });
    switch (args.cliCommand) {
      case "can-connect-to-database": {
        const settings = pgSettingsFromUrl(url);
        try {
          await queryOnce(settings.pool, "SELECT 1");
        } catch (error) {
          throw Object.assign(new Error(errorMessage(error)), { prismaError: connectionError(error, settings) });
        }
        log("INFO", "Connection successful");
        return 0;
      }
      case "create-database": {
        const database = await createDatabase(url);
        log("INFO", `Database '${database}' was successfully created.`);
        return 0;
      }
      default:
        throw Object.assign(new Error(`Unsupported command: cli ${args.cliCommand}`), {
          prismaError: { code: undefined, message: `Unsupported command: cli ${args.cliCommand}` },
        });
    }
  } catch (error) {
    const prismaError = /** @type {any} */ (error).prismaError ?? { code: undefined, message: errorMessage(error) };
    log("ERROR", prismaError.message, { is_panic: false, ...(prismaError.code ? { error_code: prismaError.code } : {}) }, "schema_engine::logger");
    return 1;
  }
}

// ---------------------------------------------------------------------------
// JSON-RPC server
// ---------------------------------------------------------------------------

/** @param {unknown} message */
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

/** Requests this engine sent to the CLI (only `print`), by id. */
const pendingCliRequests = new Map();
let nextCliRequestId = 1;

/**
 * Asks the CLI to print text on its stdout (the binary does this for
 * `migrate diff`; the CLI does not print the `diff` result itself).
 * @param {string} content
 */
function printViaCli(content) {
  const id = nextCliRequestId++;
  return new Promise((resolve) => {
    pendingCliRequests.set(id, resolve);
    send({ jsonrpc: "2.0", id, method: "print", params: { content } });
  });
}

/** JSON-RPC methods that map 1:1 onto the Wasm SchemaEngine's methods. */
const PASS_THROUGH_METHODS = new Set([
  "applyMigrations",
  "dbExecute",
  "debugPanic",
  "devDiagnostic",
  "diagnoseMigrationHistory",
  "ensureConnectionValidity",
  "introspect",
  "introspectSql",
  "markMigrationApplied",
  "markMigrationRolledBack",
  "reset",
  "schemaPush",
]);

/** @param {Args} args */
async function serveJsonRpc(args) {
  if (args.ignored.length > 0) log("DEBUG", `Ignoring arguments: ${args.ignored.join(" ")}`);

  /** @type {Promise<{ engine: any, adapterFactory: any }>} */
  const enginePromise = createEngine(args);
  // Do not crash on an init failure: report it as the answer to each request
  // instead, so the CLI shows the reason rather than waiting for a reply.
  enginePromise.catch((error) => log("ERROR", `Could not start the Wasm schema engine: ${errorMessage(error)}`));

  /** @type {Record<string, (engine: any, params: any) => Promise<any>>} */
  const handlers = {
    getDatabaseVersion: (engine, params) => engine.version(params ?? null),
    async createDatabase(_engine, params) {
      const url = params?.datasource?.tag === "ConnectionString" ? params.datasource.url : resolveUrls(args.datasource).url;
      if (!url) throw new Error(NO_URL_MESSAGE);
      registerSecretsOf(url);
      try {
        return { databaseName: await createDatabase(url) };
      } catch (error) {
        const prismaError = /** @type {any} */ (error).prismaError;
        throw prismaError?.code ? Object.assign(new Error(prismaError.message), { code: prismaError.code }) : error;
      }
    },
    async diff(engine, params) {
      const result = await engine.diff(params);
      if (result.stdout) await printViaCli(result.stdout.replace(/\n$/, ""));
      return { exitCode: result.exitCode, stdout: null };
    },
    createMigration: (engine, params) => withShadowSchema(engine, "createMigration", params),
    evaluateDataLoss: (engine, params) => withShadowSchema(engine, "evaluateDataLoss", params),
    getDatabaseDescription: async () => {
      throw new Error("getDatabaseDescription is not supported by the Wasm schema engine.");
    },
  };

  /**
   * createMigration/evaluateDataLoss need the schema that the migration
   * history produces. The Wasm engine does not build it itself: it only
   * reuses the one that diagnoseMigrationHistory/devDiagnostic computed in a
   * shadow database earlier in the same process, and otherwise fails with
   * "PostgreSQL shadow DB must be provided through an external factory".
   * `migrate dev` usually runs devDiagnostic first, but that one skips the
   * shadow database when, e.g., the database has no migrations table yet.
   * So on that error, warm the shadow database up with
   * diagnoseMigrationHistory({ optInToShadowDatabase: true }) and retry once.
   * @param {any} engine @param {"createMigration" | "evaluateDataLoss"} method @param {any} params
   */
  async function withShadowSchema(engine, method, params) {
    try {
      return await engine[method](params);
    } catch (error) {
      if (!/shadow DB must be provided through an external factory/.test(errorMessage(error))) throw error;
    }
    log("INFO", `Preparing the shadow database for ${method}`);
    lastShadowDbError = undefined;
    await engine.diagnoseMigrationHistory({
      migrationsList: params.migrationsList,
      optInToShadowDatabase: true,
      filters: params.filters ?? { externalTables: [], externalEnums: [] },
    });
    // diagnoseMigrationHistory reports shadow database failures only as a
    // missing drift diagnosis; surface the real reason.
    if (lastShadowDbError) throw lastShadowDbError;
    return engine[method](params);
  }

  /** @param {any} request */
  async function handleRequest(request) {
    const { id, method, params } = request;
    log("DEBUG", `RPC request ${method} (id ${id})`);
    let adapterFactory;
    try {
      const started = await enginePromise;
      adapterFactory = started.adapterFactory;
      const handler = handlers[method];
      /** @type {any} */
      let result;
      if (handler) {
        result = await handler(started.engine, params);
      } else if (PASS_THROUGH_METHODS.has(method)) {
        result = await started.engine[method](params);
      } else {
        send({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
        return;
      }
      // Several engine methods resolve to undefined; the binary answers `{}`.
      send({ jsonrpc: "2.0", id, result: result === undefined ? {} : result });
    } catch (error) {
      const rpcError = toRpcError(error, adapterFactory);
      log("ERROR", String(rpcError.data.message), { method });
      send({ jsonrpc: "2.0", id, error: rpcError });
      if (rpcError.data.is_panic) {
        // The Wasm instance is in an undefined state after a panic.
        await shutdown(101);
      }
    }
  }

  // Requests run one at a time, in arrival order: the Wasm engine is a single
  // object and its methods must not interleave.
  let queue = Promise.resolve();
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on("line", (line) => {
    if (!line.trim()) return;
    /** @type {any} */
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return;
    }
    if (message.method === undefined && message.id !== undefined) {
      // The CLI's answer to one of our `print` requests.
      const resolve = pendingCliRequests.get(message.id);
      pendingCliRequests.delete(message.id);
      resolve?.(message.result);
      return;
    }
    if (message.id === undefined || message.id === null) return; // notification: nothing to answer
    queue = queue.then(() => handleRequest(message));
  });
  input.on("close", () => {
    queue.then(() => shutdown(0));
  });
}

let shuttingDown = false;

/** @param {number} code */
async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  await dropPendingShadowDatabases();
  // The Wasm engine leaves a 10 s timer behind; do not wait for it.
  process.exit(code);
}

// The CLI stops the engine by closing stdin and sending SIGTERM right away;
// SIGINT arrives with Ctrl-C in the terminal running the CLI.
process.on("SIGTERM", () => shutdown(0));
process.on("SIGINT", () => shutdown(130));

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(
      "schema-engine (Wasm shim)\n\nUsage:\n  schema-engine --version\n  schema-engine [--datasource <json>] cli can-connect-to-database|create-database\n  schema-engine [--datamodels <file>]... [--datasource <json>]   (JSON-RPC on stdin/stdout)\n",
    );
    process.exit(0);
  }
  // One-shot calls end with process.exit(): the Wasm glue can leave timers
  // (the engine's own 10 s one) and pg sockets that would keep Node alive.
  if (args.version) {
    const glue = await loadWasmModule();
    process.stdout.write(`schema-engine-cli ${glue.version()} (wasm)\n`);
    process.exit(0);
  }
  if (args.cliCommand !== undefined) {
    process.exit(await runCliCommand(args));
  }
  await serveJsonRpc(args);
}

main().catch((error) => {
  log("ERROR", errorMessage(error), { is_panic: false }, "schema_engine::logger");
  process.exit(1);
});
