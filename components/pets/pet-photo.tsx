import type { CSSProperties } from "react";
import type { Pet, Photo } from "@/lib/pets/schemas/pet";
import { PetPicture } from "@/components/pets/pet-picture";

// Photos as plain <img> elements with a srcset of the variants the API
// lists: the browser picks the width the layout needs (and the screen's
// density), with no image component or optimiser shipped or run. The photo's
// own width and height reserve its box before it arrives, and its tiny
// blurred placeholder fills that box meanwhile.

/** "url 320w, url 640w, ...": every variant, narrowest first. */
export function srcSetOf(photo: Photo): string {
  return variants(photo)
    .map(([width, url]) => `${url} ${width}w`)
    .join(", ");
}

function variants(photo: Photo): [number, string][] {
  return Object.entries(photo.urls)
    .map(([width, url]): [number, string] => [Number(width), url])
    .sort((a, b) => a[0] - b[0]);
}

/** The fallback src for browsers without srcset: the variant nearest 640 px wide. */
function defaultSrc(photo: Photo): string {
  const list = variants(photo);
  return (list.find(([width]) => width >= 640) ?? list.at(-1))?.[1] ?? "";
}

export function PhotoImage({
  photo,
  alt,
  sizes,
  className,
  priority = false,
  eager = false,
  fit = "cover",
}: {
  photo: Photo;
  /** cover fills the box (cropping); contain shows all of the photo on its own blurred placeholder. */
  fit?: "cover" | "contain";
  /** Defaults to the photo's own alt text ("" when it has none: then it is decorative). */
  alt?: string;
  /** How wide the image is laid out, as the sizes attribute says it. */
  sizes: string;
  className?: string;
  /** The page's largest paint: fetched at once and first (React also preloads it from the head), not lazily. */
  priority?: boolean;
  /** On the first screen of some screens (the grid's first row on a wide one): fetched at once, but after the priority one. */
  eager?: boolean;
}) {
  const style: CSSProperties = { backgroundImage: `url("${photo.placeholder}")`, backgroundSize: "cover", backgroundPosition: "center" };
  return (
    // eslint-disable-next-line @next/next/no-img-element -- the variants are made once, at upload; next/image would resize them again on every instance
    <img
      src={defaultSrc(photo)}
      srcSet={srcSetOf(photo)}
      sizes={sizes}
      width={photo.width}
      height={photo.height}
      alt={alt ?? photo.alt ?? ""}
      loading={priority || eager ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
      style={style}
      className={`${fit === "cover" ? "object-cover" : "object-contain"} ${className ?? ""}`}
    />
  );
}

/** An animal's cover: its first photo, or its drawing until it has one. */
export function PetCover({
  pet,
  categoryName,
  sizes,
  className,
  priority,
  eager,
}: {
  pet: Pick<Pet, "id" | "photos">;
  categoryName: string | undefined;
  sizes: string;
  className?: string;
  priority?: boolean;
  eager?: boolean;
}) {
  const cover = pet.photos[0];
  if (!cover) return <PetPicture petId={pet.id} categoryName={categoryName} className={className} priority={priority} eager={eager} />;
  return <PhotoImage photo={cover} sizes={sizes} className={className} priority={priority} eager={eager} />;
}
