"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { petQueryKey } from "@/components/pets/use-pet";
import { PhotoImage } from "@/components/pets/pet-photo";
import { FormAlert } from "@/components/staff/form-alert";
import { PhotoDropZone, admit, type QueuedPhoto } from "@/components/staff/photo-drop-zone";
import { dangerButtonClass, inputClass, panelClass, secondaryButtonClass } from "@/components/staff/styles";
import { uploadPhoto } from "@/components/staff/upload-photo";
import { petHistoryQueryKey } from "@/components/staff/use-pet-history";
import { useUpdatePet } from "@/components/staff/use-update-pet";
import { ApiClientError } from "@/lib/site/api-error";
import { callApi } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";
import { ALT_MAX, PHOTOS_MAX } from "@/lib/pets/schemas/fields";
import { type Pet, type Photo } from "@/lib/pets/schemas/pet";

// Staff manage an animal's photos: upload several (each with its progress
// bar), describe each one (alt text), put them in order (the first is the
// cover) and delete them. Every change is one API call under If-Match with
// the animal's current version, like any other change to it; the animal is
// then read again, so the page, the browse cache and the history follow.

/**
 * One upload at a time: photos take their place in the order they arrive,
 * so sent one after another they keep the order staff chose (the first the
 * cover); and the server resizes one photo at a time per process anyway.
 */
const PARALLEL = 1;

interface Upload extends QueuedPhoto {
  state: "waiting" | "sending" | "failed";
  /** 0 to 1, of the bytes sent. */
  progress: number;
  error?: string;
}

const messageOf = (error: unknown) => (error instanceof ApiClientError && error.status !== 0 && error.status !== 429 ? error.message : describeError(error));

export function PhotoManager({ pet, initialQueue = [] }: { pet: Pet; initialQueue?: QueuedPhoto[] }) {
  const client = useQueryClient();
  const reorder = useUpdatePet();
  const [uploads, setUploads] = useState<Upload[]>(() => initialQueue.map((q) => ({ ...q, state: "waiting", progress: 0 })));
  const [refused, setRefused] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const sending = useRef(new Set<string>());

  const patch = (key: string, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  /** After any change: the animal again (its version moved), and what shows it. */
  const refresh = () =>
    Promise.all([client.invalidateQueries({ queryKey: petQueryKey(pet.id) }), client.invalidateQueries({ queryKey: petHistoryQueryKey(pet.id) })]);

  // The queue: start waiting uploads while fewer than PARALLEL are sending.
  useEffect(() => {
    const next = uploads.filter((u) => u.state === "waiting").slice(0, Math.max(0, PARALLEL - sending.current.size));
    for (const upload of next) {
      sending.current.add(upload.key);
      patch(upload.key, { state: "sending", progress: 0 });
      uploadPhoto(pet.id, upload.file, upload.alt, { onProgress: ({ loaded, total }) => patch(upload.key, { progress: loaded / total }) })
        .then(({ photo, version }: { photo: Photo; version: number | null }) => {
          // Shown at once, with the version the upload made (so a save that
          // follows at once names it); the read that follows brings the rest.
          client.setQueryData<Pet | null>(petQueryKey(pet.id), (current) =>
            current && !current.photos.some((p) => p.id === photo.id)
              ? { ...current, photos: [...current.photos, photo], version: Math.max(current.version, version ?? current.version) }
              : current,
          );
          setUploads((list) => list.filter((u) => u.key !== upload.key));
          setNotice(`Added ${upload.file.name}.`);
          void refresh();
        })
        .catch((error: unknown) => patch(upload.key, { state: "failed", error: messageOf(error) }))
        .finally(() => sending.current.delete(upload.key));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs on every change of the queue; the rest is read fresh
  }, [uploads]);

  const pending = uploads.filter((u) => u.state !== "failed").length;
  const room = PHOTOS_MAX - pet.photos.length - pending;

  function add(files: File[]) {
    const { queued, refused } = admit(files, room);
    setRefused(refused);
    setUploads((list) => [...list, ...queued.map((q): Upload => ({ ...q, state: "waiting", progress: 0 }))]);
  }

  /** One change to a photo, under If-Match: a 412 means someone else changed the animal; its photos are read again. */
  async function change(photoId: number, what: string, call: () => Promise<unknown>) {
    setProblem(null);
    setNotice(null);
    setBusy(photoId);
    try {
      await call();
      setNotice(what);
    } catch (error) {
      setProblem(
        error instanceof ApiClientError && error.status === 412
          ? "Someone else changed this animal meanwhile, so nothing was changed. Its photos are shown as they are now: try again."
          : `Nothing was changed. ${messageOf(error)}`,
      );
    } finally {
      setBusy(null);
      await refresh();
    }
  }

  const ifMatch = { "If-Match": `"${pet.version}"` };

  const move = (index: number, to: number) => {
    const order = pet.photos.map((p) => p.id);
    const [id] = order.splice(index, 1);
    order.splice(to, 0, id!);
    return change(id!, to === 0 ? "The cover is changed." : "The order is saved.", () =>
      reorder.mutateAsync({ id: pet.id, version: pet.version, changes: { photoOrder: order } }),
    );
  };

  return (
    <section aria-labelledby="photos-heading" className={`${panelClass} space-y-4`}>
      <h2 id="photos-heading" className="text-lg font-semibold">
        Photos ({pet.photos.length} of {PHOTOS_MAX})
      </h2>
      {problem ? <FormAlert>{problem}</FormAlert> : null}

      {pet.photos.length === 0 && pending === 0 ? <p className="text-stone-700">No photos yet: adopters see a drawing until the first one is added.</p> : null}
      <ol className="space-y-3">
        {pet.photos.map((photo, index) => (
          <PhotoRow
            key={photo.id}
            photo={photo}
            index={index}
            count={pet.photos.length}
            busy={busy !== null}
            onMove={(to) => void move(index, to)}
            onAlt={(alt) =>
              void change(photo.id, "The description is saved.", () =>
                callApi((api) =>
                  api.PATCH("/pets/{petId}/photos/{photoId}", {
                    params: { path: { petId: pet.id, photoId: photo.id } },
                    body: { alt: alt || null },
                    headers: ifMatch,
                  }),
                ),
              )
            }
            onDelete={() =>
              void change(photo.id, "The photo is deleted.", () =>
                callApi((api) => api.DELETE("/pets/{petId}/photos/{photoId}", { params: { path: { petId: pet.id, photoId: photo.id } }, headers: ifMatch })),
              )
            }
          />
        ))}
      </ol>

      {uploads.length > 0 && (
        <ul aria-label="Uploads" className="space-y-2">
          {uploads.map((u) => (
            <li key={u.key} className="rounded-md border border-stone-200 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 font-medium break-all">{u.file.name}</span>
                {u.state === "failed" ? (
                  <span className="flex gap-2">
                    <button type="button" className={secondaryButtonClass} onClick={() => patch(u.key, { state: "waiting", error: undefined })}>
                      Try again
                    </button>
                    <button type="button" className={secondaryButtonClass} onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}>
                      Remove
                    </button>
                  </span>
                ) : (
                  <span className="text-sm text-stone-700">
                    {u.state === "waiting" ? "Waiting…" : u.progress >= 1 ? "Processing…" : `${Math.round(u.progress * 100)}%`}
                  </span>
                )}
              </div>
              {u.state === "failed" ? (
                <p role="alert" className="mt-1 text-sm font-medium text-red-700">
                  {u.error}
                </p>
              ) : (
                <progress
                  className="mt-2 h-2 w-full accent-emerald-700"
                  max={1}
                  value={u.state === "waiting" ? 0 : u.progress}
                  aria-label={`Uploading ${u.file.name}`}
                />
              )}
            </li>
          ))}
        </ul>
      )}

      {refused.length > 0 && (
        <ul role="alert" className="list-disc space-y-1 pl-5 text-sm font-medium text-red-700">
          {refused.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      <PhotoDropZone room={room} onFiles={add} />
      <p role="status" className="text-sm text-stone-700">
        {notice}
      </p>
    </section>
  );
}

function PhotoRow({
  photo,
  index,
  count,
  busy,
  onMove,
  onAlt,
  onDelete,
}: {
  photo: Photo;
  index: number;
  count: number;
  busy: boolean;
  onMove: (to: number) => void;
  onAlt: (alt: string) => void;
  onDelete: () => void;
}) {
  const [alt, setAlt] = useState(photo.alt ?? "");
  const [confirming, setConfirming] = useState(false);
  // Another version of the photo (saved here or elsewhere) replaces what was typed only when nothing was.
  const [shownAlt, setShownAlt] = useState(photo.alt);
  if (photo.alt !== shownAlt) {
    setShownAlt(photo.alt);
    setAlt(photo.alt ?? "");
  }
  const label = `photo ${index + 1}${index === 0 ? " (the cover)" : ""}`;
  const altId = `photo-${photo.id}-alt`;
  return (
    <li className="flex flex-col gap-3 rounded-md border border-stone-200 p-3 sm:flex-row">
      <PhotoImage photo={photo} alt="" sizes="160px" className="aspect-[4/3] w-40 shrink-0 rounded-md" />
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-sm font-semibold text-stone-800">
          {index + 1}. {index === 0 ? "Cover" : `Photo ${index + 1}`} · {photo.width}×{photo.height}
        </p>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            onAlt(alt.trim());
          }}
        >
          <div className="min-w-0 flex-1">
            <label htmlFor={altId} className="block text-sm text-stone-800">
              Description for people who cannot see it (alt text)
            </label>
            <input
              id={altId}
              type="text"
              maxLength={ALT_MAX}
              value={alt}
              onChange={(e) => setAlt(e.target.value)}
              placeholder="e.g. Biscuit asleep on a blue blanket"
              className={inputClass(false)}
            />
          </div>
          <button type="submit" disabled={busy || alt.trim() === (photo.alt ?? "")} className={secondaryButtonClass}>
            Save description
          </button>
        </form>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            disabled={busy || index === 0}
            onClick={() => onMove(0)}
            className={secondaryButtonClass}
            aria-label={`Make ${label} the cover`}
          >
            Make cover
          </button>
          <button
            type="button"
            disabled={busy || index === 0}
            onClick={() => onMove(index - 1)}
            className={secondaryButtonClass}
            aria-label={`Move ${label} earlier`}
          >
            Move earlier
          </button>
          <button
            type="button"
            disabled={busy || index === count - 1}
            onClick={() => onMove(index + 1)}
            className={secondaryButtonClass}
            aria-label={`Move ${label} later`}
          >
            Move later
          </button>
          {confirming ? (
            <>
              <button type="button" disabled={busy} onClick={onDelete} className={dangerButtonClass}>
                Delete {label}
              </button>
              <button type="button" onClick={() => setConfirming(false)} className={secondaryButtonClass}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" disabled={busy} onClick={() => setConfirming(true)} className={secondaryButtonClass} aria-label={`Delete ${label}…`}>
              Delete…
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
