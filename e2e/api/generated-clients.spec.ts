import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createClient } from "@hey-api/openapi-ts";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { generateTypes } from "../../scripts/openapi-types";
import { createKey } from "../helpers";

// What a partner does with /v1/openapi.json: generate a client and call the
// API through it. Three generators, the common ones: @hey-api/openapi-ts with
// its zod plugin validating every request and every answer, openapi-typescript
// (the site's own, with its documented recipe for files) under openapi-fetch,
// and orval 8 (its `fetch` client, its `zod` schemas validating every request
// and answer; it builds multipart forms and the import's JSON mapping field
// from the document alone, and would send no body at all for an operation
// offering several media types, which is why the photo upload documents one).
// For each, the client is generated from the document
// the server serves, the calling code (e2e/clients/) is type-checked against
// it, and then run: every public operation must go through, the photo upload
// included (as a Blob: the multipart form's file, and for openapi-fetch the
// image as the body too).
//
// hey-api's zod plugin turns every string into z.string(), `format: binary`
// included (hey-api/hey-api#4265, open in 0.99.0 as in 0.95.0): its request
// validator would refuse any Blob whatever the document says. The document
// says `format: binary`, which hey-api itself types as Blob | File; partners
// close the gap with the plugin's resolver hook keyed on it, as here
// (docs/api.md shows the same three lines).

const ROOT = process.cwd();

/** Runs a TypeScript file as the project runs its scripts (tsx); resolves with its exit status and output. */
function runScript(file: string, cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", file], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.once("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

test("every public operation through three generated clients, uploads included, with hey-api's and orval's validation on", async ({
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(360_000);
  const dir = testInfo.outputPath("clients");
  fs.mkdirSync(dir, { recursive: true });

  const document = await (await request.get("/v1/openapi.json")).json();
  const operations: string[] = Object.values(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) =>
    Object.values(methods).map((op) => op.operationId),
  );
  expect(operations).toContain("addPetPhoto");
  fs.writeFileSync(path.join(dir, "openapi.json"), JSON.stringify(document));

  // The two clients, generated from the document as served.
  await createClient({
    input: path.join(dir, "openapi.json"),
    output: { path: path.join(dir, "hey-api") },
    logs: { level: "silent" },
    plugins: [
      "@hey-api/client-fetch",
      {
        name: "zod",
        "~resolvers": {
          // A string of format binary is a file (hey-api/hey-api#4265).
          string: (ctx) => (ctx.schema.format === "binary" ? ctx.$(ctx.symbols.z).attr("instanceof").call(ctx.$("Blob")) : undefined),
        },
      },
      { name: "@hey-api/sdk", validator: { request: "zod", response: "zod" } },
    ],
  });
  // defaultNonNullable off, as docs/api.md advises: else openapi-typescript makes every field with a
  // default (a new animal's sex, an application's otherAnimals) required in request bodies too.
  fs.writeFileSync(path.join(dir, "openapi-typescript.ts"), await generateTypes(document, { defaultNonNullable: false }));
  // orval, from its command line with a config a partner would write: the fetch client (its base URL the
  // server's) and the zod schemas, each one file.
  fs.writeFileSync(
    path.join(dir, "orval.config.mjs"),
    `export default ${JSON.stringify({
      client: {
        input: { target: "./openapi.json" },
        output: { target: "./orval/client.ts", client: "fetch", mode: "single", baseUrl: `${baseURL}/v1`, prettier: false },
      },
      zod: { input: { target: "./openapi.json" }, output: { target: "./orval/zod.ts", client: "zod", mode: "single", prettier: false } },
    })};\n`,
  );
  const orval = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "orval", "dist", "bin", "orval.mjs"), "--config", "orval.config.mjs"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(orval.status, `${orval.stdout}${orval.stderr}`).toBe(0);
  // "Generated without a warning": orval prints its warnings and errors on standard error.
  expect(orval.stderr.trim(), orval.stderr).toBe("");
  for (const file of ["shared.ts", "hey-api-calls.ts", "openapi-fetch-calls.ts", "orval-calls.ts"])
    fs.copyFileSync(path.join(ROOT, "e2e", "clients", file), path.join(dir, file));

  // The calling code type-checks against what was generated (a photo is a Blob to both).
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "esnext",
        moduleResolution: "bundler",
        lib: ["dom", "dom.iterable", "esnext"],
        types: ["node"],
        typeRoots: [path.join(ROOT, "node_modules", "@types")],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ["*.ts", "hey-api/**/*.ts", "orval/**/*.ts"],
    }),
  );
  const typecheck = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--strict"], {
    encoding: "utf8",
    timeout: 180_000,
  });
  expect(typecheck.status, `${typecheck.stdout}${typecheck.stderr}`).toBe(0);

  // A receiver for the webhook operations (the suite's server allows 127.0.0.1: WEBHOOK_ALLOW_PRIVATE).
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const photo = path.join(dir, "card.png");
  fs.writeFileSync(
    photo,
    await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .png()
      .toBuffer(),
  );
  const key = createKey(
    "generated clients",
    "--plan",
    "enterprise",
    "--per-minute",
    "100000",
    "--per-day",
    "1000000",
    "--scopes",
    "pets:read,pets:write,applications:write,webhooks:manage,organizations:manage,listings:manage,records:read,records:write,people:read,people:write",
  );
  const platformKey = createKey(
    "generated clients, platform",
    "--platform",
    "--plan",
    "enterprise",
    "--per-minute",
    "100000",
    "--per-day",
    "1000000",
    "--scopes",
    "pets:read,organizations:manage,records:read",
  );

  try {
    for (const caller of ["hey-api-calls.ts", "openapi-fetch-calls.ts", "orval-calls.ts"]) {
      // Not spawnSync: the receiver answers from this process's event loop while the caller runs.
      const run = await runScript(path.join(dir, caller), dir, {
        PETSTORE_API: `${baseURL}/v1`,
        PETSTORE_KEY: key,
        PETSTORE_PLATFORM_KEY: platformKey,
        RECEIVER_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        PHOTO_FILE: photo,
      });
      expect(run.status, `${caller}:\n${run.stdout}${run.stderr}`).toBe(0);
      const { called } = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { called: string[] };
      expect([...called].sort(), caller).toEqual([...operations].sort());
    }
  } finally {
    receiver.close();
  }
});
