"use client";

import { useId, useState, type DragEvent } from "react";
import { MAX_UPLOAD_BYTES, PHOTO_FORMATS } from "@/lib/photos/limits";
import { PHOTOS_MAX } from "@/lib/pets/schemas/fields";
import { hintClass } from "@/components/staff/styles";

// Where staff choose photos: a file picker (several at once) that is also a
// drop target. What the browser can tell before sending (the type it
// reports, the size, how many fit) is checked here, so a mistake is named
// at once; the server still decides by decoding the bytes.

const ACCEPT = "image/jpeg,image/png,image/webp,image/avif,image/heic,image/heif";
const MB = MAX_UPLOAD_BYTES / 1024 / 1024;

/** A photo chosen and not yet sent: its file, the alt text typed for it, and a preview (a blob: URL, revoked with forgetPhotos). */
export interface QueuedPhoto {
  key: string;
  file: File;
  alt: string;
  preview: string;
}

/** Frees the previews' memory once they are no longer shown. */
export function forgetPhotos(photos: QueuedPhoto[]): void {
  for (const p of photos) URL.revokeObjectURL(p.preview);
}

/** Why this file cannot be sent, or null when it may be. */
export function refusal(file: File): string | null {
  if (file.type && !file.type.startsWith("image/")) return `${file.name} is not an image (${PHOTO_FORMATS.join(", ")} are accepted).`;
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} is larger than ${MB} MB (${(file.size / 1024 / 1024).toFixed(1)} MB).`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}

let counter = 0;

/**
 * Splits chosen files into those to queue and the reasons the others are
 * not: wrong type or size, or beyond the `room` left of the 10 photos.
 */
export function admit(files: File[], room: number): { queued: QueuedPhoto[]; refused: string[] } {
  const queued: QueuedPhoto[] = [];
  const refused: string[] = [];
  for (const file of files) {
    const why = refusal(file);
    if (why) refused.push(why);
    else if (queued.length >= room) refused.push(`${file.name} was not added: an animal has at most ${PHOTOS_MAX} photos.`);
    else queued.push({ key: `q${++counter}`, file, alt: "", preview: URL.createObjectURL(file) });
  }
  return { queued, refused };
}

export function PhotoDropZone({ room, onFiles }: { room: number; onFiles: (files: File[]) => void }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const full = room <= 0;
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!full) onFiles([...event.dataTransfer.files]);
  };
  return (
    <div
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = full ? "none" : "copy";
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`rounded-lg border-2 border-dashed p-4 text-center has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-emerald-700 ${over ? "border-emerald-700 bg-emerald-50" : "border-stone-400 bg-stone-50"}`}
    >
      <label htmlFor={id} className={`font-semibold ${full ? "text-stone-500" : "cursor-pointer text-emerald-800 underline underline-offset-2"}`}>
        Choose photos
      </label>
      <span className="text-stone-700"> or drop them here</span>
      <input
        id={id}
        type="file"
        multiple
        accept={ACCEPT}
        disabled={full}
        aria-describedby={`${id}-hint`}
        className="sr-only"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          // The same file chosen again must fire change again.
          event.target.value = "";
        }}
      />
      <p id={`${id}-hint`} className={hintClass}>
        {full
          ? `This animal has ${PHOTOS_MAX} photos, the most it can have: delete one to add another.`
          : `${PHOTO_FORMATS.join(", ")}, up to ${MB} MB each; ${room} more can be added. The first photo is the cover. Location and camera details are removed.`}
      </p>
    </div>
  );
}
