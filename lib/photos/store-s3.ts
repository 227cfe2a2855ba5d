import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { Env } from "@/lib/env";
import type { PhotoStore, StoredFile } from "@/lib/photos/store-interface";

// Photo files in any S3-compatible object store (AWS S3, MinIO, R2, Ceph),
// for deployments that outgrow keeping them in PostgreSQL (PHOTO_STORE=s3).
// The `tx` arguments are ignored: an object store cannot join a PostgreSQL
// transaction, so lib/photos/service.ts orders its calls around the commit.

export interface S3StoreConfig {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  prefix: string;
}

export function s3ConfigFromEnv(env: Env): S3StoreConfig {
  if (!env.S3_BUCKET) throw new Error("S3_BUCKET is required when PHOTO_STORE=s3");
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    prefix: env.S3_PREFIX,
  };
}

/** A failure to reach the store, in the form lib/core/errors.ts answers 503 for. */
function unreachable(error: unknown): Error {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && status < 500) return error as Error;
  return Object.assign(new Error("the photo store cannot be reached", { cause: error }), { code: e.code ?? "ECONNREFUSED" });
}

export function s3PhotoStore(config: S3StoreConfig): PhotoStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
    // S3-compatible stores often refuse the SDK's newer default integrity
    // checksums; send and check them only where S3 requires them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
    // Nothing waits unbounded (a request is answered 503 instead).
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 },
  });
  const name = (key: string) => `${config.prefix}${key}`;
  return {
    kind: "s3",
    async put(key: string, file: StoredFile): Promise<void> {
      await client
        .send(
          new PutObjectCommand({
            Bucket: config.bucket,
            Key: name(key),
            Body: file.bytes,
            ContentType: file.contentType,
            CacheControl: "public, max-age=31536000, immutable",
          }),
        )
        .catch((error: unknown) => {
          throw unreachable(error);
        });
    },
    async get(key: string): Promise<StoredFile | null> {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: name(key) }));
        return { bytes: Buffer.from(await res.Body!.transformToByteArray()), contentType: res.ContentType ?? "application/octet-stream" };
      } catch (error) {
        const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404) return null;
        throw unreachable(error);
      }
    },
    // One DeleteObject per key (a photo has at most three files): the
    // batched DeleteObjects needs a checksum header some S3-compatible
    // stores sign differently (s3rver refuses it), and deleting a missing
    // key is a success everywhere.
    async delete(keys: string[]): Promise<void> {
      await Promise.all(
        keys.map((key) =>
          client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: name(key) })).catch((error: unknown) => {
            throw unreachable(error);
          }),
        ),
      );
    },
  };
}
