import type { PhotoStore } from "@/lib/photos/store-interface";

// The one factory that chooses the photo store (the interface and its meaning:
// lib/photos/store-interface.ts). The stores import the interface, never this
// factory, so choosing one is not a circle.

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
