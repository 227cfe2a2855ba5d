import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ANIMAL_KINDS, VARIANTS, kindOfCategory, variantOf } from "@/lib/pictures/kinds";
import { drawAnimal, drawScene, lookOf } from "@/lib/pictures/draw";

const ALL_VARIANTS = Array.from({ length: VARIANTS }, (_, v) => v);

describe("kindOfCategory", () => {
  it("maps the seeded categories by name, trimmed and in any case, and anything else to the paw print", () => {
    expect(kindOfCategory("Dogs")).toBe("dog");
    expect(kindOfCategory("cats")).toBe("cat");
    expect(kindOfCategory(" RABBITS ")).toBe("rabbit");
    expect(kindOfCategory("Birds")).toBe("bird");
    expect(kindOfCategory("Reptiles")).toBe("reptile");
    expect(kindOfCategory("Small mammals")).toBe("small-mammal");
    expect(kindOfCategory("Fish")).toBe("paw");
    expect(kindOfCategory("")).toBe("paw");
    expect(kindOfCategory(undefined)).toBe("paw");
    // Names of the lookup object's own machinery are not categories.
    expect(kindOfCategory("constructor")).toBe("paw");
    expect(kindOfCategory("__proto__")).toBe("paw");
  });
});

describe("variants", () => {
  it("gives every id a variant in range, the same each time", () => {
    for (const id of [1, 2, 104, 105, 106, 9_007_199_254_740_991]) {
      const v = variantOf(id);
      expect(Number.isInteger(v) && v >= 0 && v < VARIANTS).toBe(true);
      expect(variantOf(id)).toBe(v);
    }
    expect(variantOf(105)).toBe(0);
    expect(variantOf(106)).toBe(1);
  });

  it("never gives neighbouring ids the same colour, markings or pose", () => {
    for (let id = 1; id < 200; id++) {
      const a = lookOf(variantOf(id));
      const b = lookOf(variantOf(id + 1));
      expect(a.colour, `ids ${id} and ${id + 1}`).not.toBe(b.colour);
      expect(a.markings, `ids ${id} and ${id + 1}`).not.toBe(b.markings);
      expect(a.pose, `ids ${id} and ${id + 1}`).not.toBe(b.pose);
    }
  });

  it("makes every variant a different combination", () => {
    const combinations = new Set(ALL_VARIANTS.map((v) => JSON.stringify(lookOf(v))));
    expect(combinations.size).toBe(VARIANTS);
  });

  it("refuses a variant out of range", () => {
    expect(() => drawAnimal("cat", VARIANTS)).toThrow(RangeError);
    expect(() => drawAnimal("cat", -1)).toThrow(RangeError);
    expect(() => drawAnimal("cat", 1.5)).toThrow(RangeError);
  });
});

describe("drawAnimal", () => {
  it("draws the same picture for the same kind and variant", () => {
    for (const kind of ANIMAL_KINDS) expect(drawAnimal(kind, 17)).toBe(drawAnimal(kind, 17));
  });

  it("draws a different picture for every variant of a kind", () => {
    for (const kind of ANIMAL_KINDS) expect(new Set(ALL_VARIANTS.map((v) => drawAnimal(kind, v))).size).toBe(VARIANTS);
  });

  it("draws small, complete SVG documents that render", async () => {
    for (const kind of ANIMAL_KINDS) {
      for (const v of ALL_VARIANTS) {
        const svg = drawAnimal(kind, v);
        expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 120"')).toBe(true);
        expect(svg.endsWith("</svg>")).toBe(true);
        expect(svg).not.toMatch(/undefined|NaN|null|<script|href/);
        expect(Buffer.byteLength(svg), `${kind}-${v}`).toBeLessThan(6_000);
        const { info } = await sharp(Buffer.from(svg)).png().toBuffer({ resolveWithObject: true });
        expect([info.width, info.height]).toEqual([160, 120]);
      }
    }
  });

  it("draws pose 1 mirrored, and only pose 1", () => {
    for (const kind of ANIMAL_KINDS) {
      for (const v of ALL_VARIANTS) expect(drawAnimal(kind, v).includes('transform="matrix(-1 0 0 1 160 0)"'), `${kind}-${v}`).toBe(v % 3 === 1);
    }
  });
});

describe("drawScene", () => {
  it("draws a large scene, the same each time, landscape or portrait", async () => {
    for (const kind of ANIMAL_KINDS) {
      const svg = drawScene(kind, 23);
      expect(svg).toBe(drawScene(kind, 23));
      expect(svg).not.toMatch(/undefined|NaN/);
      const meta = await sharp(Buffer.from(svg)).metadata();
      expect([meta.width, meta.height]).toEqual([1600, 1200]);
    }
    const upright = await sharp(Buffer.from(drawScene("dog", 4, { orientation: "portrait" }))).metadata();
    expect([upright.width, upright.height]).toEqual([1200, 1600]);
  });
});
