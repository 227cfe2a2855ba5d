import sharp from "sharp";
import { drawScene, type Orientation } from "@/lib/pictures/draw";
import { type AnimalKind } from "@/lib/pictures/kinds";

// Photos for the demo seed. Nothing may be downloaded when the app is
// installed, so the demo animals' photos are drawn: the same animal as its
// drawing, in a scene of its own, as a JPEG like a camera would upload, so
// the photo pipeline (decode, orient, resize to WebP) runs on them as on
// real uploads.

export async function demoPhoto(kind: AnimalKind, variant: number, options: { orientation?: Orientation } = {}): Promise<Buffer> {
  const svg = drawScene(kind, variant, { orientation: options.orientation ?? "landscape" });
  // Rendered at the scene's own size (72 dpi, one SVG unit a pixel).
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
