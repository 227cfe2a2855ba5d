import { describe, expect, it } from "vitest";
import { isSaved, parseSaved, removeSaved, SAVED_MAX, serializeSaved, toggleSaved } from "@/lib/saved/saved";
import { idChunks, newestFirst, SAVED_STATUS_LABELS } from "@/lib/saved/saved-view";

const at = (iso: string) => new Date(iso);

describe("parseSaved: whatever localStorage holds", () => {
  it("reads what serializeSaved wrote", () => {
    const list = toggleSaved(toggleSaved([], { id: 3, name: "Biscuit" }, at("2026-11-01T10:00:00Z")), { id: 7, name: "Zoë" }, at("2026-11-02T10:00:00Z"));
    expect(parseSaved(serializeSaved(list))).toEqual([
      { id: 3, name: "Biscuit", savedAt: "2026-11-01T10:00:00.000Z" },
      { id: 7, name: "Zoë", savedAt: "2026-11-02T10:00:00.000Z" },
    ]);
  });

  it.each([
    null,
    undefined,
    "",
    "not json",
    "{}",
    '"x"',
    "42",
    "null",
    "[1,2]",
    '[{"name":"x"}]',
    '[{"id":0}]',
    '[{"id":1.5}]',
    '[{"id":"3"}]',
    '[{"id":9007199254740992}]',
  ])("counts %j as nothing saved", (raw) => expect(parseSaved(raw)).toEqual([]));

  it("keeps the readable entries, names the nameless, and counts an id saved twice once", () => {
    expect(parseSaved(JSON.stringify([{ id: 4 }, null, { id: 4, name: "Again" }, { id: 5, name: "Rex", savedAt: "nonsense" }]))).toEqual([
      { id: 4, name: "Animal #4", savedAt: "1970-01-01T00:00:00.000Z" },
      { id: 5, name: "Rex", savedAt: "1970-01-01T00:00:00.000Z" },
    ]);
  });

  it("reads at most SAVED_MAX entries", () => {
    const many = Array.from({ length: SAVED_MAX + 10 }, (_, i) => ({ id: i + 1, name: `A${i}`, savedAt: "2026-01-01T00:00:00Z" }));
    expect(parseSaved(JSON.stringify(many))).toHaveLength(SAVED_MAX);
  });
});

describe("toggleSaved and removeSaved", () => {
  it("adds, then removes, the same animal", () => {
    const once = toggleSaved([], { id: 1, name: "Biscuit" }, at("2026-11-01T00:00:00Z"));
    expect(isSaved(once, 1)).toBe(true);
    const twice = toggleSaved(once, { id: 1, name: "Biscuit" }, at("2026-11-02T00:00:00Z"));
    expect(twice).toEqual([]);
  });

  it("never changes the list it is given (React compares snapshots by reference)", () => {
    const list = Object.freeze(toggleSaved([], { id: 1, name: "A" }, at("2026-11-01T00:00:00Z")));
    expect(() => toggleSaved(list, { id: 2, name: "B" }, at("2026-11-01T00:00:00Z"))).not.toThrow();
    expect(removeSaved(list, 1)).toEqual([]);
    expect(list).toHaveLength(1);
  });

  it("makes room by dropping the oldest when full", () => {
    let list = Array.from({ length: SAVED_MAX }, (_, i) => ({ id: i + 1, name: `A${i}`, savedAt: "2026-01-01T00:00:00.000Z" }));
    list = toggleSaved(list, { id: 10_000, name: "New" }, at("2026-11-01T00:00:00Z"));
    expect(list).toHaveLength(SAVED_MAX);
    expect(isSaved(list, 1)).toBe(false);
    expect(isSaved(list, 10_000)).toBe(true);
  });
});

describe("what /saved shows", () => {
  it("lists newest first", () => {
    const list = [
      { id: 1, name: "Old", savedAt: "2026-01-01T00:00:00.000Z" },
      { id: 2, name: "New", savedAt: "2026-03-01T00:00:00.000Z" },
    ];
    expect(newestFirst(list).map((s) => s.name)).toEqual(["New", "Old"]);
  });

  it("asks for at most 100 ids at once", () => {
    const ids = Array.from({ length: 250 }, (_, i) => i + 1);
    expect(idChunks(ids).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(idChunks([])).toEqual([]);
  });

  it("says an adopted animal is adopted", () => {
    expect(SAVED_STATUS_LABELS).toEqual({ available: "Available", pending: "Adoption pending", sold: "Adopted" });
  });
});
