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
