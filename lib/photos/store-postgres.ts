import { db, query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { PhotoStore, StoredFile } from "@/lib/photos/store-interface";

// The default photo store: files in PostgreSQL (photo_files). Every instance
// sees them at once, a database backup holds them, and a file is written in
// the same transaction as the photo that uses it, so neither exists without
// the other. Reads are one prepared primary-key lookup; browsers and CDNs
// cache the answers for a year (they are immutable), so few reach it.

export const postgresPhotoStore: PhotoStore = {
  kind: "postgres",
  async put(key: string, file: StoredFile, tx?: Prisma.TransactionClient): Promise<void> {
    await (tx ?? db()).$executeRaw`
      INSERT INTO photo_files (key, content_type, bytes) VALUES (${key}, ${file.contentType}, ${file.bytes})
      ON CONFLICT (key) DO NOTHING`;
  },
  async get(key: string): Promise<StoredFile | null> {
    const rows = await query<{ contentType: string; bytes: Buffer }>(
      Prisma.sql`SELECT content_type AS "contentType", bytes FROM photo_files WHERE key = ${key}`,
    );
    const row = rows[0];
    return row ? { contentType: row.contentType, bytes: row.bytes } : null;
  },
  async delete(keys: string[], tx?: Prisma.TransactionClient): Promise<void> {
    if (!keys.length) return;
    await (tx ?? db()).$executeRaw`DELETE FROM photo_files WHERE key = ANY(${keys}::text[])`;
  },
};
