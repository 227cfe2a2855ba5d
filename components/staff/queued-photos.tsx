"use client";

import { useState } from "react";
import { PhotoDropZone, admit, type QueuedPhoto } from "@/components/staff/photo-drop-zone";
import { hintClass, inputClass, labelClass, secondaryButtonClass } from "@/components/staff/styles";
import { ALT_MAX, PHOTOS_MAX } from "@/lib/pets/schemas/fields";

// Photos chosen on the add form, before the animal exists: kept here with
// their alt text, then sent (with progress) once it has been added.

export function QueuedPhotos({ queued, onChange }: { queued: QueuedPhoto[]; onChange: (next: QueuedPhoto[]) => void }) {
  const [refused, setRefused] = useState<string[]>([]);
  return (
    <fieldset className="space-y-3">
      <legend className="text-base font-semibold text-stone-900">Photos</legend>
      <p className={hintClass}>They are sent once the animal is added; you can add, reorder and describe photos later on its page too.</p>
      {queued.length > 0 && (
        <ol className="space-y-2">
          {queued.map((q, index) => (
            <li key={q.key} className="flex items-start gap-3 rounded-md border border-stone-200 p-2">
              {/* eslint-disable-next-line @next/next/no-img-element -- a local file's preview (a blob: URL), before any upload */}
              <img src={q.preview} alt="" className="aspect-[4/3] w-24 shrink-0 rounded-md bg-stone-100 object-cover" />
              <div className="min-w-0 flex-1">
                <label htmlFor={`${q.key}-alt`} className={labelClass}>
                  {index === 0 ? "Cover: " : `Photo ${index + 1}: `}
                  <span className="font-normal break-all">{q.file.name}</span>
                </label>
                <input
                  id={`${q.key}-alt`}
                  type="text"
                  maxLength={ALT_MAX}
                  value={q.alt}
                  placeholder="Describe it for people who cannot see it (alt text)"
                  onChange={(e) => onChange(queued.map((x) => (x.key === q.key ? { ...x, alt: e.target.value } : x)))}
                  className={inputClass(false)}
                />
              </div>
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => {
                  URL.revokeObjectURL(q.preview);
                  onChange(queued.filter((x) => x.key !== q.key));
                }}
                aria-label={`Remove ${q.file.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      {refused.length > 0 && (
        <ul role="alert" className="list-disc space-y-1 pl-5 text-sm font-medium text-red-700">
          {refused.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      <PhotoDropZone
        room={PHOTOS_MAX - queued.length}
        onFiles={(files) => {
          const { queued: more, refused } = admit(files, PHOTOS_MAX - queued.length);
          setRefused(refused);
          onChange([...queued, ...more]);
        }}
      />
    </fieldset>
  );
}
