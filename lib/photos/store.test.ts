import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { isDatabaseUnavailable } from "@/lib/core/errors";
import { postgresPhotoStore } from "@/lib/photos/store-postgres";
import { s3ConfigFromEnv, s3PhotoStore } from "@/lib/photos/store-s3";
import { freePort } from "@/scripts/database";
import { photoStoreContract } from "@/tests/photos/store-contract";
import { startS3, type TestS3 } from "@/tests/s3-server";

// Both photo stores pass the same contract: PostgreSQL (the default) on the
// test database, S3 against a real S3-protocol server started here.

photoStoreContract("postgres", async () => ({ store: postgresPhotoStore, cleanup: async () => {} }));

let s3: TestS3 | undefined;
photoStoreContract("s3", async () => {
  s3 = await startS3();
  const store = s3PhotoStore({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: "us-east-1",
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
    prefix: "photos/",
  });
  return { store, cleanup: async () => s3?.stop() };
});

it("s3: objects land under the prefix, in the bucket", async () => {
  const own = await startS3("prefixed");
  try {
    const store = s3PhotoStore({
      bucket: own.bucket,
      endpoint: own.endpoint,
      region: "us-east-1",
      accessKeyId: own.accessKeyId,
      secretAccessKey: own.secretAccessKey,
      forcePathStyle: true,
      prefix: "shelter-a/",
    });
    await store.put("abc.webp", { bytes: Buffer.from("x"), contentType: "image/webp" });
    const found = fs.readdirSync(path.join(own.directory, own.bucket), { recursive: true }).map(String);
    expect(found.some((f) => f.startsWith("shelter-a") && f.includes("abc.webp"))).toBe(true);
  } finally {
    await own.stop();
  }
});

it("s3: a store nobody answers fails in bounded time, as 'unavailable' (a 503 for the request)", async () => {
  const port = await freePort();
  const store = s3PhotoStore({
    bucket: "nowhere",
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    accessKeyId: "a",
    secretAccessKey: "b",
    forcePathStyle: true,
    prefix: "",
  });
  const error = await store.get("x.webp").then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  expect(isDatabaseUnavailable(error)).toBe(true);
}, 30_000);

it("s3: configuration comes from the S3_* variables", () => {
  const env = parseEnv({
    NODE_ENV: "test",
    PHOTO_STORE: "s3",
    S3_BUCKET: "pets",
    S3_ENDPOINT: "http://minio:9000",
    S3_FORCE_PATH_STYLE: "true",
    S3_PREFIX: "p/",
  });
  expect(s3ConfigFromEnv(env)).toMatchObject({ bucket: "pets", endpoint: "http://minio:9000", region: "us-east-1", forcePathStyle: true, prefix: "p/" });
  expect(() => parseEnv({ NODE_ENV: "test", PHOTO_STORE: "s3" })).toThrow(/S3_BUCKET/);
});
