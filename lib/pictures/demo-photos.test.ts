import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { demoPhoto } from "@/lib/pictures/demo-photos";

describe("demoPhoto", () => {
  it("draws a JPEG photo, landscape unless asked otherwise", async () => {
    const landscape = await sharp(await demoPhoto("cat", 5)).metadata();
    expect([landscape.format, landscape.width, landscape.height]).toEqual(["jpeg", 1600, 1200]);
    const portrait = await sharp(await demoPhoto("bird", 12, { orientation: "portrait" })).metadata();
    expect([portrait.format, portrait.width, portrait.height]).toEqual(["jpeg", 1200, 1600]);
  });

  it("draws the same photo for the same animal", async () => {
    expect((await demoPhoto("dog", 8)).equals(await demoPhoto("dog", 8))).toBe(true);
  });
});
