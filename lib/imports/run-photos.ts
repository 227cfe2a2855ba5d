import { now } from "@/lib/clock";
import type { PlannedRow } from "@/lib/imports/plan";
import * as queries from "@/lib/imports/queries";
import { addIssues, save, type RunOptions, type State } from "@/lib/imports/run-state";
import { PHOTO_FETCH_ALLOWANCE } from "@/lib/imports/schemas";
import { quoteCell } from "@/lib/listings/formats/cells";
import type { GuardOptions } from "@/lib/outbound/address-guard";
import { fetchOutbound, PHOTO_FETCH_LIMITS } from "@/lib/outbound/fetch";
import { outboundAllowPrivate } from "@/lib/outbound/switch";
import { photoSources } from "@/lib/photos/queries";
import { addPhoto } from "@/lib/photos/service";
import { PHOTOS_MAX } from "@/lib/pets/schemas/fields";

// An import's photos, after its rows (lib/imports/run.ts): the addresses
// checked and counted first, then fetched a few animals at a time, each
// animal's in the file's order.

const PHOTO_CONCURRENCY = 4;

interface PhotoTask {
  petId: number;
  line: number;
  url: string;
}

const photoWord = (n: number) => `${n} photo address${n === 1 ? "" : "es"}`;

/**
 * The photos to fetch, checked before any is: each row's addresses (at most
 * 10, taken when the row was read) not fetched before for its animal, as
 * many as the animal still has room for; then at most the import's and the
 * organisation's day's allowance. Every address left out is counted
 * (`skipped`) and said in the report.
 */
async function photoTasks(state: State, planned: PlannedRow[], options: RunOptions): Promise<PhotoTask[]> {
  const { photos } = state.progress;
  const skip = (line: number, n: number, why: string) => {
    photos.skipped += n;
    addIssues(state, [{ line, field: "photo", message: `${photoWord(n)} left out: ${why}`, result: "importedWithWarning" }]);
  };
  const withPhotos = planned.filter((p) => p.action !== "reject" && (p.row.photoUrls.length || p.row.photosLeftOut));
  const held = await photoSources(withPhotos.flatMap((p) => (p.petId === null ? [] : [p.petId])));
  const tasks: PhotoTask[] = [];
  for (const p of withPhotos) {
    if (p.row.photosLeftOut) skip(p.row.line, p.row.photosLeftOut, `an animal holds at most ${PHOTOS_MAX} photos, and the row names more`);
    const pet = (p.petId !== null && held.get(p.petId)) || { count: 0, sources: new Set<string>() };
    const fresh = p.row.photoUrls.filter((url) => !pet.sources.has(url));
    const room = Math.max(0, PHOTOS_MAX - pet.count);
    if (fresh.length > room) skip(p.row.line, fresh.length - room, `the animal already has ${pet.count} of its ${PHOTOS_MAX} photos`);
    tasks.push(...fresh.slice(0, room).map((url) => ({ petId: p.petId ?? 0, line: p.row.line, url })));
  }
  const allowance = options.photoAllowance ?? PHOTO_FETCH_ALLOWANCE;
  const usedToday = await queries.photoFetchesSince(state.organizationId, new Date(now().getTime() - 86_400_000), state.id);
  const room = Math.max(0, Math.min(allowance.perImport, allowance.perDay - usedToday));
  if (tasks.length > room) {
    skip(
      0,
      tasks.length - room,
      `an import fetches at most ${allowance.perImport.toLocaleString("en-US")} photos, and an organisation ${allowance.perDay.toLocaleString("en-US")} a day; import the file again later to fetch them (photos already stored are not fetched again)`,
    );
  }
  return tasks.slice(0, room);
}

export async function runPhotos(state: State, planned: PlannedRow[], options: RunOptions): Promise<void> {
  const tasks = await photoTasks(state, planned, options);
  const { photos } = state.progress;
  photos.queued = tasks.length;
  await save(state);
  if (state.dryRun || !tasks.length) return;
  const guard: GuardOptions = { allowPrivate: outboundAllowPrivate(), refusal: "photos are only fetched from public addresses", ...options.guard };
  // One animal's photos in the file's order (the first becomes the cover); animals side by side.
  const byPet = new Map<number, PhotoTask[]>();
  for (const task of tasks) byPet.set(task.petId, [...(byPet.get(task.petId) ?? []), task]);
  const queue = [...byPet.values()];
  let done = 0;
  const worker = async () => {
    for (let list = queue.shift(); list; list = queue.shift()) {
      for (const task of list) {
        if (state.lease.aborted) return;
        try {
          const { bytes } = await fetchOutbound(task.url, guard, options.limits ?? PHOTO_FETCH_LIMITS);
          await addPhoto(task.petId, { bytes, alt: null, sourceUrl: task.url }, { ...state.context, view: state.view });
          photos.stored++;
        } catch (error) {
          // Whatever went wrong with one photo (the address, the server, the image), the animal stays imported.
          photos.failed++;
          const reason = error instanceof Error ? error.message : String(error);
          addIssues(state, [{ line: task.line, field: "photo", message: `${quoteCell(task.url, 100)}: ${reason}`, result: "importedWithWarning" }]);
        }
        if (++done % 10 === 0) await save(state);
      }
    }
  };
  await Promise.all(Array.from({ length: PHOTO_CONCURRENCY }, worker));
  if (state.lease.aborted) throw new queries.LeaseLostError(state.id);
}
