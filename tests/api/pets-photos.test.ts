import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as photoFile } from "@/app/photos/[key]/route";
import { GET as listEventsRoute } from "@/app/v1/events/route";
import { PATCH as patchPet } from "@/app/v1/pets/[petId]/route";
import { DELETE as deletePhotoRoute, PATCH as patchPhoto } from "@/app/v1/pets/[petId]/photos/[photoId]/route";
import { POST as addPhotoRoute } from "@/app/v1/pets/[petId]/photos/route";
import { GET as listPets } from "@/app/v1/pets/route";
import { db } from "@/lib/db";
import { MAX_UPLOAD_BYTES } from "@/lib/photos/limits";
import type { Pet, Photo } from "@/lib/pets/schemas/pet";
import { ORIGIN, call, expectApiError, expectJson, newKey, seedPets, type CallOptions } from "./helpers";

// Photos through the API, with real image files made here: what is
// accepted (decided by decoding), what is refused and how, what is stripped,
// where the files go and when they are removed, and that every change is
// a versioned change of the animal with its event.

let key: string;
let readOnlyKey: string;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"], "photographer"));
  ({ key: readOnlyKey } = await newKey(["pets:read"], "reader"));
});

const image = (width: number, height: number, colour = "#c97d4a") => sharp({ create: { width, height, channels: 3, background: colour } });
const jpeg = (w = 1600, h = 1200, colour?: string) => image(w, h, colour).jpeg({ quality: 80 }).toBuffer();
const png = (w = 800, h = 600) => image(w, h, "#4a7dc9").png().toBuffer();

function upload(petId: number, body: BodyInit, options: CallOptions = {}) {
  return call(addPhotoRoute, `/v1/pets/${petId}/photos`, { method: "POST", key, body, params: { petId: String(petId) }, ...options });
}
function multipart(file: Buffer, filename: string, type: string, alt?: string): FormData {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(file)], { type }), filename);
  if (alt !== undefined) form.set("alt", alt);
  return form;
}
async function petOf(id: number): Promise<Pet> {
  const [pet] = await expectJson<Pet[]>(await call(listPets, `/v1/pets?id=${id}`, { key }));
  return pet!;
}
async function fetchFile(url: string, headers: Record<string, string> = {}) {
  const key = url.split("/photos/")[1]!;
  return photoFile(new Request(url, { headers }), { params: Promise.resolve({ key }) });
}
const fresh = async () => (await seedPets([{ name: "Photogenic" }]))[0]!;

describe("adding a photo", () => {
  it("as the body: 201 with the Photo, listed on the animal, whose version and ETag move on", async () => {
    const pet = await fresh();
    const res = await upload(pet.id, new Uint8Array(await jpeg()), { headers: { "content-type": "image/jpeg" } });
    const photo = await expectJson<Photo>(res, 201);
    expect(photo).toMatchObject({ width: 1600, height: 1200, alt: null });
    expect(Object.keys(photo.urls)).toEqual(["320", "640", "1280"]);
    for (const url of Object.values(photo.urls)) expect(url).toMatch(new RegExp(`^${ORIGIN}/photos/[A-Za-z0-9_-]{43}\\.webp$`));
    expect(photo.placeholder).toMatch(/^data:image\/webp;base64,/);
    expect(res.headers.get("etag")).toBe('"2"');
    const after = await petOf(pet.id);
    expect(after.version).toBe(2);
    expect(after.photos).toEqual([photo]);
  });

  it("as a multipart form with alt text; a PNG called photo.jpg is a PNG (the bytes decide)", async () => {
    const pet = await fresh();
    const photo = await expectJson<Photo>(await upload(pet.id, multipart(await png(), "photo.jpg", "image/jpeg", "  Asleep on a blue blanket ")), 201);
    expect(photo).toMatchObject({ alt: "Asleep on a blue blanket", width: 800, height: 600 });
    expect(Object.keys(photo.urls)).toEqual(["320", "640"]);
  });

  it("never enlarges: a small image has one variant at its own width", async () => {
    const pet = await fresh();
    const photo = await expectJson<Photo>(await upload(pet.id, new Uint8Array(await png(200, 150))), 201);
    expect(Object.keys(photo.urls)).toEqual(["200"]);
  });

  it("applies the EXIF orientation and strips every piece of metadata, GPS included", async () => {
    const pet = await fresh();
    const phone = await image(1200, 900)
      .jpeg()
      .withExif({
        IFD0: { Make: "PhoneMaker", Model: "Phone 12" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(phone).metadata()).exif).toBeDefined();
    const photo = await expectJson<Photo>(await upload(pet.id, new Uint8Array(phone)), 201);
    // Orientation 6: stored sideways, displayed upright (portrait).
    expect({ width: photo.width, height: photo.height }).toEqual({ width: 900, height: 1200 });
    for (const url of Object.values(photo.urls)) {
      const res = await fetchFile(url);
      const bytes = Buffer.from(await res.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.height).toBeGreaterThan(meta.width!);
      expect([meta.exif, meta.icc, meta.xmp, meta.iptc]).toEqual([undefined, undefined, undefined, undefined]);
      expect(bytes.includes(Buffer.from("Exif"))).toBe(false);
      expect(bytes.includes(Buffer.from("PhoneMaker"))).toBe(false);
    }
  });
});

describe("refusals, each in the Error shape", () => {
  it("a text file sent as image/jpeg: 415, naming the formats accepted", async () => {
    const pet = await fresh();
    const body = await expectApiError(
      await upload(pet.id, "hello, I am not a photo", { headers: { "content-type": "image/jpeg" } }),
      415,
      "unsupported_media_type",
    );
    expect(body.message).toMatch(/JPEG, PNG, WebP or AVIF/);
  });

  it("a body that is neither the form nor an image ([object Object] as text/plain): 415 naming the type received and the ones accepted", async () => {
    const pet = await fresh();
    const body = await expectApiError(
      await upload(pet.id, "[object Object]", { headers: { "content-type": "text/plain;charset=UTF-8" } }),
      415,
      "unsupported_media_type",
    );
    expect(body.message).toContain('"text/plain;charset=UTF-8"');
    expect(body.message).toContain("multipart/form-data");
    expect(body.message).toContain("image/jpeg, image/png, image/webp, image/avif or application/octet-stream");
  });

  it("a form's file that is not an image: 415 naming the type its part declared", async () => {
    const pet = await fresh();
    const body = await expectApiError(await upload(pet.id, multipart(Buffer.from("just text"), "notes.txt", "text/plain")), 415, "unsupported_media_type");
    expect(body.message).toContain('declared as "text/plain"');
    expect(body.message).toMatch(/JPEG, PNG, WebP or AVIF/);
  });

  it("a GIF: 415", async () => {
    const pet = await fresh();
    await expectApiError(await upload(pet.id, new Uint8Array(await image(50, 50).gif().toBuffer())), 415, "unsupported_media_type");
  });

  it("a truncated JPEG: 415, not a 500", async () => {
    const pet = await fresh();
    const whole = await jpeg();
    await expectApiError(await upload(pet.id, new Uint8Array(whole.subarray(0, whole.length / 2))), 415, "unsupported_media_type");
  });

  it("a 10,000 x 10,000 PNG (a decompression bomb): 422 image_too_large", async () => {
    const pet = await fresh();
    const bomb = await image(10_000, 10_000, "#ffffff").png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(2_000_000);
    const body = await expectApiError(await upload(pet.id, new Uint8Array(bomb)), 422, "image_too_large");
    expect(body.message).toMatch(/40 megapixels/);
  });

  it("over 15 MB: 413, from the Content-Length before anything is read", async () => {
    const pet = await fresh();
    const res = await upload(pet.id, new Uint8Array(MAX_UPLOAD_BYTES + 1), { headers: { "content-type": "image/jpeg" } });
    await expectApiError(res, 413, "payload_too_large");
  });

  it("over 15 MB without a Content-Length: 413 once the limit passes, without reading the rest", async () => {
    const pet = await fresh();
    let sent = 0;
    const chunk = new Uint8Array(1024 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // An endless body: the answer must come anyway.
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    await expectApiError(await upload(pet.id, stream, { headers: { "content-type": "image/png" } }), 413, "payload_too_large");
    expect(sent).toBeLessThan(MAX_UPLOAD_BYTES + 4 * chunk.length);
  });

  it("an empty body or a form without `file`: 400 invalid_body naming file", async () => {
    const pet = await fresh();
    const a = await expectApiError(await upload(pet.id, new Uint8Array(0)), 400, "invalid_body");
    expect(a.details?.map((d) => d.field)).toEqual(["file"]);
    const form = new FormData();
    form.set("alt", "no file");
    const b = await expectApiError(await upload(pet.id, form), 400, "invalid_body");
    expect(b.details?.map((d) => d.field)).toEqual(["file"]);
  });

  it("the 11th photo: 409 too_many_photos", async () => {
    const pet = await fresh();
    const small = new Uint8Array(await png(64, 48));
    for (let i = 0; i < 10; i++) await expectJson(await upload(pet.id, small), 201);
    await expectApiError(await upload(pet.id, small), 409, "too_many_photos");
    expect((await petOf(pet.id)).photos).toHaveLength(10);
  });

  it("an unknown animal: 404; a read-only key: 403; a stale If-Match: 412", async () => {
    const pet = await fresh();
    const small = new Uint8Array(await png(64, 48));
    await expectApiError(await upload(999_999, small), 404, "not_found");
    await expectApiError(await upload(pet.id, small, { key: readOnlyKey }), 403, "forbidden");
    await expectApiError(await upload(pet.id, small, { headers: { "If-Match": '"7"' } }), 412, "precondition_failed");
  });
});

describe("serving files", () => {
  it("publicly (no key), immutable for a year, with an ETag that answers 304, and the right type", async () => {
    const pet = await fresh();
    const photo = await expectJson<Photo>(await upload(pet.id, new Uint8Array(await jpeg())), 201);
    const res = await fetchFile(photo.urls["640"]!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(640);
    const again = await fetchFile(photo.urls["640"]!, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("404 for a name that is not a photo's", async () => {
    for (const key of ["nope.webp", `${"A".repeat(43)}.webp`, "../etc/passwd"]) {
      const res = await photoFile(new Request(`${ORIGIN}/photos/${key}`), { params: Promise.resolve({ key }) });
      expect(res.status).toBe(404);
    }
  });
});

describe("reordering, alt text and deleting", () => {
  it("reorders with photoOrder under If-Match, changes alt, deletes; each is a new version with a pet.updated event", async () => {
    const pet = await fresh();
    const a = await expectJson<Photo>(await upload(pet.id, new Uint8Array(await jpeg(800, 600, "#aa3333"))), 201);
    const b = await expectJson<Photo>(await upload(pet.id, new Uint8Array(await jpeg(800, 600, "#33aa33"))), 201);
    const patchOf = (json: unknown, version: number) =>
      call(patchPet, `/v1/pets/${pet.id}`, { method: "PATCH", key, json, params: { petId: String(pet.id) }, headers: { "If-Match": `"${version}"` } });

    await expectApiError(await patchOf({ photoOrder: [b.id, a.id] }, 2), 412, "precondition_failed");
    await expectApiError(await patchOf({ photoOrder: [b.id] }, 3), 400, "invalid_body");
    const reordered = await expectJson<Pet>(await patchOf({ photoOrder: [b.id, a.id] }, 3));
    expect(reordered.photos.map((p) => p.id)).toEqual([b.id, a.id]);
    expect(reordered.version).toBe(4);

    const alt = await call(patchPhoto, `/v1/pets/${pet.id}/photos/${a.id}`, {
      method: "PATCH",
      key,
      json: { alt: "Green" },
      params: { petId: String(pet.id), photoId: String(a.id) },
    });
    expect((await expectJson<Photo>(alt)).alt).toBe("Green");

    const del = await call(deletePhotoRoute, `/v1/pets/${pet.id}/photos/${b.id}`, {
      method: "DELETE",
      key,
      params: { petId: String(pet.id), photoId: String(b.id) },
    });
    expect(del.status).toBe(204);
    expect(del.headers.get("etag")).toBe('"6"');
    const after = await petOf(pet.id);
    expect(after.photos.map((p) => p.id)).toEqual([a.id]);

    const events = await expectJson<{ type: string; data: { pet: Pet; previous?: Partial<Pet> } }[]>(
      await call(listEventsRoute, "/v1/events?limit=100", { key }),
    );
    const mine = events.filter((e) => e.data.pet.id === pet.id);
    expect(mine.map((e) => [e.type, e.data.pet.version, e.data.pet.photos.length, e.data.previous?.photos?.length])).toEqual([
      ["pet.updated", 2, 1, 0],
      ["pet.updated", 3, 2, 1],
      ["pet.updated", 4, 2, 2],
      ["pet.updated", 5, 2, 2],
      ["pet.updated", 6, 1, 2],
    ]);
    // The feed shows photos like the API: URLs, never the stored file names alone.
    expect(mine.at(-1)!.data.pet.photos[0]!.urls).toEqual(after.photos[0]!.urls);
  });

  it("a deleted photo's files are removed, unless another photo uses the same ones", async () => {
    const [one, two] = await seedPets([{ name: "One" }, { name: "Two" }]);
    const bytes = new Uint8Array(await jpeg(700, 500, "#123456"));
    const p1 = await expectJson<Photo>(await upload(one!.id, bytes), 201);
    const p2 = await expectJson<Photo>(await upload(two!.id, bytes), 201);
    expect(p2.urls).toEqual(p1.urls); // the same bytes, the same files
    const remove = (petId: number, photoId: number) =>
      call(deletePhotoRoute, `/v1/pets/${petId}/photos/${photoId}`, { method: "DELETE", key, params: { petId: String(petId), photoId: String(photoId) } });
    expect((await remove(one!.id, p1.id)).status).toBe(204);
    expect((await fetchFile(p2.urls["640"]!)).status).toBe(200);
    expect((await remove(two!.id, p2.id)).status).toBe(204);
    expect((await fetchFile(p2.urls["640"]!)).status).toBe(404);
    const keys = Object.values(p2.urls).map((u) => u.split("/photos/")[1]!);
    expect(await db().photoFile.count({ where: { key: { in: keys } } })).toBe(0);
    await expectApiError(await remove(two!.id, p2.id), 404, "not_found");
  });
});
