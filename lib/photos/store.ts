import type { Prisma } from "@/lib/generated/prisma/client";

// Where photo files live, behind one small interface: PostgreSQL by default
// (every instance sees the same files, and a database backup holds them),
// or any S3-compatible object store once a deployment outgrows that
// (PHOTO_STORE=s3). Files are content-addressed ("<sha256>.webp"): a key
// always names the same bytes, so they can be cached forever and written twice
// without harm.

export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

export interface PhotoStore {
  /** "postgres" or "s3": which implementation, for logs and readiness. */
  readonly kind: "postgres" | "s3";
  /**
   * Stores a file under its key (writing the same key again is harmless).
   * `tx`: the PostgreSQL store writes inside the caller's transaction, so
   * the file commits (or not) with the photo that uses it; others ignore it.
   */
  put(key: string, file: StoredFile, tx?: Prisma.TransactionClient): Promise<void>;
  /** The file, or null when there is none under this key. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes files; keys that do not exist are ignored. */
  delete(keys: string[], tx?: Prisma.TransactionClient): Promise<void>;
}

let chosen: Promise<PhotoStore> | undefined;

/** The store PHOTO_STORE names (the S3 client is loaded only when it is the one). */
export function photoStore(): Promise<PhotoStore> {
  chosen ??= (async () => {
    const { env } = await import("@/lib/env");
    const config = env();
    if (config.PHOTO_STORE === "s3") {
      const { s3PhotoStore, s3ConfigFromEnv } = await import("@/lib/photos/store-s3");
      return s3PhotoStore(s3ConfigFromEnv(config));
    }
    return (await import("@/lib/photos/store-postgres")).postgresPhotoStore;
  })();
  return chosen;
}

/** Test hook: use this store (or, with no argument, the configured one again). */
export function setPhotoStore(store?: PhotoStore): void {
  chosen = store ? Promise.resolve(store) : undefined;
}
