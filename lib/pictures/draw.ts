import { VARIANTS, type AnimalKind } from "@/lib/pictures/kinds";

// Drawings of animals that have no photo yet, one per variant, so a page of
// them is not a grid of the same cat. A variant is three independent choices
// (see VARIANTS): the coat's colours, its markings and the pose. Each animal
// is drawn in the same 160x120 space as the static pictures in
// public/pictures/, standing on the ground near its bottom edge, so one
// drawing serves both the small picture and the large demo scene.
//
// Pure string building, no DOM and no Node APIs: it runs in a route handler
// and in scripts alike. Nothing from a user reaches the output; only the
// kind and a number, both checked.

/** Which colour, markings and pose a variant stands for. */
export interface Look {
  colour: number;
  markings: number;
  pose: number;
}

export function lookOf(variant: number): Look {
  if (!Number.isInteger(variant) || variant < 0 || variant >= VARIANTS) throw new RangeError(`variant must be an integer in [0, ${VARIANTS})`);
  return { colour: variant % 7, markings: variant % 5, pose: variant % 3 };
}

// --- SVG fragments -----------------------------------------------------------

const ell = (cx: number, cy: number, rx: number, ry: number, fill: string, more = "") =>
  `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${fill}"${more}/>`;
const circle = (cx: number, cy: number, r: number, fill: string, more = "") => `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"${more}/>`;
const shape = (d: string, fill: string, more = "") => `<path d="${d}" fill="${fill}"${more}/>`;
const line = (d: string, stroke: string, width: number, more = "") => `<path d="${d}" stroke="${stroke}" stroke-width="${width}" fill="none"${more}/>`;
const rect = (x: number, y: number, w: number, h: number, fill: string, more = "") =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}"${more}/>`;
const rotate = (deg: number, cx: number, cy: number) => ` transform="rotate(${deg} ${cx} ${cy})"`;
const group = (transform: string, inner: string) => (transform ? `<g transform="${transform}">${inner}</g>` : inner);
const edge = (colour: string, width = 1.5) => ` stroke="${colour}" stroke-width="${width}"`;
/** Mirrors a drawing of the 160-wide picture left to right. */
const MIRROR = "matrix(-1 0 0 1 160 0)";

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length] as T;

const EYE = "#1c1917";
const SHINE = "#fff";
const PINK = "#f9b8c4";
const NOSE_PINK = "#e8778b";

/** Two decimals at most: the same drawing in fewer bytes, and no 0.30000000000000004 in it. */
const round = (n: number) => Math.round(n * 100) / 100;

/** A round eye with its highlight (the highlight is what makes it friendly). */
const eye = (cx: number, cy: number, r: number, fill = EYE) =>
  circle(cx, cy, r, fill) + circle(round(cx + r * 0.33), round(cy - r * 0.33), round(r * 0.3), SHINE);

// --- The animals ---------------------------------------------------------------
// Each takes the look and returns the animal in its base orientation: pose 1
// is pose 0 mirrored (done by the caller), so pose 0 is drawn asymmetric
// enough (head tilted, tail to one side) for the mirror image to read as a
// different animal; pose 2 is another posture altogether.

interface Kind {
  /** The small picture's backdrop: flat sky and ground, as the static pictures. */
  backdrop: string;
  animal: (look: Look) => string;
  /** Where its feet touch the ground, for the shadow in the scene. */
  ground: number;
  scene: Scene;
}

interface Scene {
  sky: [string, string];
  /** The floor's colours, or none for a bird on its branch in the open air. */
  floor?: [string, string];
  /** Props behind the animal, in a scene width x height whose floor starts at floorY. */
  props: (width: number, height: number, floorY: number, look: Look) => string;
}

// Dogs: sitting, or lying down with the tail up.
const DOG_COATS = [
  { coat: "#d39a5a", ear: "#7c4a1e", light: "#f3dcb4", spot: "#9a6232", pale: "#fff8ec" },
  { coat: "#3f3935", ear: "#27221f", light: "#c99d6f", spot: "#1f1b18", pale: "#f5efe6", brow: "#c99d6f" },
  { coat: "#f1e7d8", ear: "#d9c4a4", light: "#fffaf2", spot: "#8a6848", pale: "#c9a57c" },
  { coat: "#8a5530", ear: "#5a3319", light: "#d9b08a", spot: "#4d2a13", pale: "#fff8ec" },
  { coat: "#a8a29e", ear: "#6b6460", light: "#ece9e6", spot: "#57514d", pale: "#fffdfa" },
  { coat: "#c8642e", ear: "#8f3f17", light: "#f4cba4", spot: "#7a3412", pale: "#fff8ec" },
  { coat: "#e6c27a", ear: "#c79a4f", light: "#faecc8", spot: "#a97c3a", pale: "#fffaf0" },
] as const;

function dog({ colour, markings, pose }: Look): string {
  const c = pick(DOG_COATS, colour);
  const lying = pose === 2;
  const pale = markings === 3 || markings === 4;
  const tail = lying ? "M124 100 Q146 96 144 76" : "M52 102 Q30 100 32 78";
  const [tipX, tipY] = lying ? ([144, 76] as const) : ([32, 78] as const);
  let out = line(tail, c.coat, 7, ' stroke-linecap="round"');
  if (markings === 4) out += circle(tipX, tipY, 4, c.pale);
  out += lying ? ell(80, 103, 50, 13, c.coat) : ell(80, 102, 34, 18, c.coat);
  if (markings === 2) out += circle(60, 98, 4.5, c.spot) + circle(101, 103, 5, c.spot) + circle(93, 92, 3, c.spot) + circle(lying ? 118 : 108, 96, 2.6, c.spot);
  if (markings === 1) out += ell(lying ? 108 : 100, 98, 10, 7, c.spot);
  out += lying ? "" : ell(80, 106, 16, 10, pale ? c.pale : c.light);
  const paw = markings === 4 ? c.pale : c.coat;
  out += lying ? ell(63, 112, 11, 5.5, paw) + ell(97, 112, 11, 5.5, paw) : ell(66, 115, 8, 4.5, paw) + ell(94, 115, 8, 4.5, paw);
  out += line(
    lying ? "M58 112 V115 M63 112 V116 M97 112 V116 M102 112 V115" : "M64 114 V117 M68 114 V117 M92 114 V117 M96 114 V117",
    c.ear,
    1,
    ' stroke-linecap="round"',
  );

  let head = ell(53, 54, 10, 22, c.ear, rotate(18, 53, 54)) + ell(107, 54, 10, 22, c.ear, rotate(-18, 107, 54));
  head += ell(80, 56, 27, 26, c.coat);
  if (markings === 1) head += ell(90, 49, 9.5, 8.5, c.spot);
  if (markings === 2) head += circle(66, 39, 3.4, c.spot) + circle(96, 38, 2.4, c.spot) + circle(100, 60, 2, c.spot);
  if (markings === 3) head += shape("M75 31 Q80 28 85 31 L83 62 H77 Z", c.pale);
  head += ell(80, 69, 15, 11, markings === 3 ? c.pale : c.light);
  if ("brow" in c) head += ell(70, 43.5, 3, 2, c.brow) + ell(90, 43.5, 3, 2, c.brow);
  head += eye(70, 50, 3.6, "#2b1a0d") + eye(90, 50, 3.6, "#2b1a0d");
  head += ell(80, 63, 5.5, 4, "#2b1a0d") + circle(78.5, 62, 1.2, "#6b5a4e");
  head += shape("M77 73 Q80 83 83 73 Z", NOSE_PINK);
  head += line("M80 67 V71 M73 71 Q80 77 87 71", "#2b1a0d", 1.8, ' stroke-linecap="round"');
  out += group(lying ? "translate(0 14)" : "rotate(9 80 80)", head);
  return out;
}

// Cats: sitting with the tail curled up, or a loaf with the tail tucked round.
const CAT_COATS = [
  { coat: "#f2a444", shade: "#c96f1c", pale: "#fff4e4", patch: "#7c4a1e", eye: "#4d7c0f", mouth: "#7c2d12", whisker: "#7c2d12" },
  { coat: "#9ca3af", shade: "#6b7280", pale: "#f8fafc", patch: "#efc89a", eye: "#d97706", mouth: "#374151", whisker: "#4b5563" },
  { coat: "#3a3a40", shade: "#5d5d66", pale: "#f4f4f5", patch: "#f4f4f5", eye: "#a3c716", mouth: "#a1a1aa", whisker: "#a1a1aa" },
  { coat: "#f7f5f2", shade: "#d6d3d1", pale: "#fff", patch: "#f2a444", eye: "#38bdf8", mouth: "#78716c", whisker: "#78716c" },
  { coat: "#f0d3a3", shade: "#cf9f5f", pale: "#fff8ec", patch: "#b77a3a", eye: "#65a30d", mouth: "#92400e", whisker: "#92400e" },
  { coat: "#8b5a2b", shade: "#5c3a1a", pale: "#f6e7d4", patch: "#f6e7d4", eye: "#eab308", mouth: "#3b2410", whisker: "#57534e" },
  { coat: "#b6c2d1", shade: "#75869c", pale: "#f8fafc", patch: "#52606f", eye: "#f59e0b", mouth: "#475569", whisker: "#475569" },
] as const;

function cat({ colour, markings, pose }: Look): string {
  const c = pick(CAT_COATS, colour);
  const loaf = pose === 2;
  const tail = loaf ? "M116 98 Q126 112 108 115 Q92 118 76 115" : "M106 100 Q136 96 130 70 Q127 58 136 52";
  let out = "";
  if (!loaf) out += line(tail, c.coat, 7, ' stroke-linecap="round"') + (markings === 3 ? line(tail, c.shade, 7, ' stroke-dasharray="4 5"') : "");
  out += loaf ? ell(80, 98, 40, 18, c.coat) : ell(80, 96, 30, 20, c.coat);
  if (markings === 1) out += ell(loaf ? 100 : 96, 100, 12, 10, c.patch);
  if (markings === 2) {
    out += circle(62, 92, 3.5, c.shade) + circle(99, 102, 4, c.shade);
    out += circle(loaf ? 110 : 92, 90, 2.6, c.shade) + circle(loaf ? 52 : 66, 104, 2.6, c.shade);
  }
  if (markings === 3)
    out += line(loaf ? "M48 92 Q54 98 50 106 M112 92 Q106 98 110 106" : "M56 88 Q62 93 57 101 M104 88 Q98 93 103 101", c.shade, 3, ' stroke-linecap="round"');
  if (markings === 4) out += ell(80, 98, 12, 13, c.pale);
  const paw = markings === 4 ? c.pale : c.coat;
  out +=
    ell(71, 112, 7, 4.5, paw) + ell(89, 112, 7, 4.5, paw) + line("M69 111 V114 M73 111 V114 M87 111 V114 M91 111 V114", c.shade, 1, ' stroke-linecap="round"');
  if (loaf) out += line(tail, c.coat, 7, ' stroke-linecap="round"') + (markings === 3 ? line(tail, c.shade, 7, ' stroke-dasharray="4 5"') : "");

  const leftEar = markings === 1 ? c.patch : c.coat;
  let head = shape("M56 46 L58 20 L78 36 Z", leftEar) + shape("M104 46 L102 20 L82 36 Z", c.coat);
  head += shape("M60 40 L61 27 L72 36 Z", PINK) + shape("M100 40 L99 27 L88 36 Z", PINK);
  head += ell(80, 56, 28, 24, c.coat);
  if (markings === 1) head += shape("M53 52 Q51 36 64 33 Q76 31 79 39 Q76 47 66 47 Q58 50 53 52 Z", c.patch);
  if (markings === 2) head += circle(93, 40, 2.8, c.shade) + circle(63, 64, 2.2, c.shade) + circle(72, 38, 2, c.shade);
  if (markings === 3)
    head += line("M72 34 L74 42 M80 33 V42 M88 34 L86 42 M53 54 H60 M54 60 H60 M107 54 H100 M106 60 H100", c.shade, 2.5, ' stroke-linecap="round"');
  if (markings === 4) head += ell(80, 67, 11, 8, c.pale);
  head += ell(69, 53, 5, 6, c.eye) + ell(91, 53, 5, 6, c.eye) + ell(69, 53, 1.6, 5, EYE) + ell(91, 53, 1.6, 5, EYE);
  head += circle(70.6, 50.6, 1.1, SHINE) + circle(92.6, 50.6, 1.1, SHINE);
  head += shape("M76.5 62 H83.5 L80 66 Z", NOSE_PINK);
  head += line("M80 66 Q77 71 72 69 M80 66 Q83 71 88 69", c.mouth, 1.6, ' stroke-linecap="round"');
  head += line("M64 64 L42 60 M64 67 L43 69 M96 64 L118 60 M96 67 L117 69", c.whisker, 1.2, ' stroke-linecap="round"');
  out += group(loaf ? "translate(0 8)" : "rotate(-9 80 80)", head);
  return out;
}

// Rabbits: one ear flopped and the head tilted, or both ears up.
const RABBIT_COATS = [
  { fur: "#f5f5f4", edge: "#d6d3d1", mark: "#78716c", tail: "#fff" },
  { fur: "#a8a29e", edge: "#8a837e", mark: "#fafaf9", tail: "#f5f5f4" },
  { fur: "#b07a48", edge: "#8d5d33", mark: "#fbf3e8", tail: "#f5ede2" },
  { fur: "#57534e", edge: "#3f3b37", mark: "#f5f5f4", tail: "#e7e5e4" },
  { fur: "#ecc894", edge: "#cfa668", mark: "#9a6b3a", tail: "#fff8ec" },
  { fur: "#6f4a2e", edge: "#54371f", mark: "#f6eadb", tail: "#efe2d0" },
  { fur: "#9fb0c4", edge: "#7f91a6", mark: "#f8fafc", tail: "#f1f5f9" },
] as const;

function rabbit({ colour, markings, pose }: Look): string {
  const c = pick(RABBIT_COATS, colour);
  const fur = edge(c.edge);
  const alert = pose === 2;
  const earFill = markings === 4 ? c.mark : c.fur;
  const ear = (deg: number, x: number) =>
    ell(x, 30, 8, 24, earFill, fur + rotate(deg, x, 52)) + ell(x, 31, 3.5, 17, markings === 4 ? c.fur : PINK, rotate(deg, x, 52));
  let out = circle(110, 100, 7, c.tail, fur);
  out += ell(80, 98, 30, 16, c.fur, fur);
  if (markings === 2) out += circle(62, 94, 4, c.mark) + circle(98, 100, 3.6, c.mark) + circle(94, 91, 2.4, c.mark);
  if (markings === 3) out += shape("M56 104 Q80 88 104 104 Q96 113 80 114 Q64 113 56 104 Z", c.mark);
  const paw = markings === 4 ? c.mark : c.fur;
  out += ell(70, 112, 6, 4, paw, fur) + ell(90, 112, 6, 4, paw, fur);

  let head = alert ? ear(-7, 70) + ear(7, 90) : ear(-12, 70) + ear(72, 90);
  head += circle(80, 66, 23, c.fur, fur);
  if (markings === 1) head += ell(89.5, 61.5, 7.5, 6.5, c.mark);
  if (markings === 2) head += ell(76, 71, 4, 3, c.mark) + ell(84, 71, 4, 3, c.mark);
  if (markings === 3) head += shape("M80 44 Q75 58 68 78 Q80 84 92 78 Q85 58 80 44 Z", c.mark);
  if (markings === 4) head += ell(80, 71.5, 6.5, 4.5, c.mark);
  head += eye(71, 62, 3.5) + eye(89, 62, 3.5);
  head += ell(66, 72, 5, 3, "#fecdd3", ' opacity=".8"') + ell(94, 72, 5, 3, "#fecdd3", ' opacity=".8"');
  head += shape("M77 70 H83 L80 73 Z", NOSE_PINK);
  head += line("M80 73 V76 M80 76 Q77 79 74 77 M80 76 Q83 79 86 77", "#57534e", 1.4, ' stroke-linecap="round"');
  head += rect(77.5, 77, 5, 4, "#fff", ` rx="1"${edge("#d6d3d1", 0.8)}`);
  head += line("M70 73 L52 70 M70 75 L53 78 M90 73 L108 70 M90 75 L107 78", "#78716c", 1, ' stroke-linecap="round"');
  out += group(alert ? "" : "rotate(-8 80 88)", head);
  return out;
}

// Birds: on a branch with the head tilted, or head up and singing.
const BIRD_COATS = [
  { body: "#22c55e", belly: "#bef264", head: "#fde047", wing: "#15803d", bar: "#14532d", tail: "#1d4ed8", accent: "#2563eb" },
  { body: "#38bdf8", belly: "#bae6fd", head: "#f8fafc", wing: "#0369a1", bar: "#0c4a6e", tail: "#1e3a8a", accent: "#7c3aed" },
  { body: "#facc15", belly: "#fef08a", head: "#fde047", wing: "#ca8a04", bar: "#854d0e", tail: "#a16207", accent: "#f97316" },
  { body: "#ef4444", belly: "#fca5a5", head: "#dc2626", wing: "#991b1b", bar: "#450a0a", tail: "#7f1d1d", accent: "#1c1917" },
  { body: "#a78bfa", belly: "#ddd6fe", head: "#ede9fe", wing: "#6d28d9", bar: "#3b0764", tail: "#4c1d95", accent: "#2563eb" },
  { body: "#a8a29e", belly: "#e7e5e4", head: "#fde68a", wing: "#57534e", bar: "#f5f5f4", tail: "#44403c", accent: "#f97316" },
  { body: "#fb923c", belly: "#fed7aa", head: "#fdba74", wing: "#c2410c", bar: "#7c2d12", tail: "#9a3412", accent: "#0f766e" },
] as const;

function bird({ colour, markings, pose }: Look): string {
  const c = pick(BIRD_COATS, colour);
  const singing = pose === 2;
  let out = line("M12 98 Q80 86 148 100", "#7c4a1e", 7, ' stroke-linecap="round"');
  out += ell(128, 90, 9, 4, "#4d7c0f", rotate(-25, 128, 90)) + ell(28, 88, 9, 4, "#4d7c0f", rotate(20, 28, 88));
  out += shape("M58 74 L32 90 L40 72 Z", c.tail);
  out += ell(76, 66, 25, 23, c.body) + ell(82, 72, 14, 15, c.belly);
  if (markings === 2) out += circle(80, 70, 1.8, c.wing) + circle(86, 76, 1.8, c.wing) + circle(78, 80, 1.8, c.wing) + circle(88, 66, 1.6, c.wing);
  out += line("M74 88 V94 M84 88 V94 M71 95 H77 M81 95 H87", "#9a3412", 2, ' stroke-linecap="round"');

  let wing = shape("M60 58 Q70 52 84 62 Q76 80 58 78 Z", c.wing);
  wing += line(
    markings === 3 ? "M64 62 Q70 60 78 64 M62 67 Q68 65 76 69 M61 72 Q66 70 72 74" : "M64 64 Q70 62 76 66 M62 70 Q68 68 74 72",
    c.bar,
    1.5,
    ' stroke-linecap="round"',
  );
  out += group(singing ? "rotate(-16 64 60)" : "", wing);

  let head = "";
  if (markings === 4) head += shape("M86 32 Q80 14 92 22 Q92 12 100 20 Q96 26 96 32 Z", c.accent);
  head += circle(92, 44, 16, c.head);
  if (markings === 3) head += line("M82 36 Q86 33 90 35 M84 31 Q88 29 92 31 M80 42 Q83 40 86 42", c.bar, 1.3, ' stroke-linecap="round"');
  if (markings === 1) head += circle(99, 51, 4.6, c.accent, ' opacity=".85"');
  if (markings === 2) head += circle(96, 57, 1.6, c.bar) + circle(101, 56, 1.6, c.bar);
  head += eye(97, 41, 3.2);
  head += singing ? shape("M106 42 Q116 42 110 47 Z", "#f97316") + shape("M106 48 Q114 51 106 54 Z", "#ea580c") : shape("M106 44 Q116 46 108 54 Z", "#f97316");
  out += group(singing ? "rotate(-16 88 58)" : "rotate(10 88 58)", head);
  if (singing) {
    const note = "#64748b";
    out += line("M124 24 V36 M124 24 L132 22 V33", note, 1.6, ' stroke-linecap="round"') + ell(121.5, 36.5, 3, 2.2, note) + ell(129.5, 33.5, 3, 2.2, note);
  }
  return out;
}

// Tortoises: walking with the head out, or stretching up to look around.
const TORTOISE_COATS = [
  { shell: "#4d7c0f", rim: "#3f6212", skin: "#84cc16", line: "#365314", mark: "#a3e635" },
  { shell: "#92400e", rim: "#78350f", skin: "#d6b370", line: "#451a03", mark: "#fbbf24" },
  { shell: "#6b705c", rim: "#50543f", skin: "#a5a58d", line: "#2f3127", mark: "#d4d4aa" },
  { shell: "#b45309", rim: "#92400e", skin: "#a3b18a", line: "#5c2a06", mark: "#fde68a" },
  { shell: "#0f766e", rim: "#115e59", skin: "#9cc5a1", line: "#134e4a", mark: "#99f6e4" },
  { shell: "#57534e", rim: "#44403c", skin: "#a8a29e", line: "#1c1917", mark: "#e7e5e4" },
  { shell: "#65a30d", rim: "#4d7c0f", skin: "#d9f99d", line: "#365314", mark: "#ecfccb" },
] as const;

function reptile({ colour, markings, pose }: Look): string {
  const c = pick(TORTOISE_COATS, colour);
  const stretching = pose === 2;
  let out = ell(52, 94, 8, 9, c.skin) + ell(104, 94, 8, 9, c.skin);
  out += shape("M40 84 L28 90 L40 90 Z", c.skin);
  const neck = stretching ? "M112 80 Q116 54 128 48 Q140 44 142 54 Q142 64 128 64 Q122 70 122 86 Z" : "M114 78 Q124 62 134 66 Q144 70 140 80 Q134 88 118 86 Z";
  out += shape(neck, c.skin);
  out += stretching
    ? eye(134, 53, 2.8) + line("M136 60 Q140 60 141 58", c.line, 1.4, ' stroke-linecap="round"')
    : eye(133, 72, 2.8) + line("M134 80 Q138 80 140 78", c.line, 1.4, ' stroke-linecap="round"');
  if (markings === 2)
    out += stretching ? circle(122, 58, 1.6, c.line) + circle(128, 60, 1.3, c.line) : circle(126, 70, 1.6, c.line) + circle(122, 78, 1.3, c.line);
  out += shape("M38 86 Q40 40 78 38 Q116 40 118 86 Z", c.shell);
  switch (markings) {
    case 0:
      out += line("M48 80 Q50 52 78 48 Q106 52 108 80", c.rim, 2, ' stroke-linecap="round"');
      break;
    case 1:
      out += shape("M66 50 L90 50 L98 66 L90 82 L66 82 L58 66 Z", "none", edge(c.line, 2));
      out += line("M66 50 L58 42 M90 50 L98 42 M58 66 H44 M98 66 H112 M66 82 L60 86 M90 82 L96 86", c.line, 2);
      break;
    case 2:
      out +=
        circle(78, 62, 6, c.mark) +
        circle(58, 70, 4, c.mark) +
        circle(98, 70, 4, c.mark) +
        circle(64, 52, 3, c.mark) +
        circle(92, 52, 3, c.mark) +
        circle(50, 82, 2.4, c.mark) +
        circle(106, 82, 2.4, c.mark);
      break;
    case 3:
      out += line("M78 44 V84 M78 62 L54 50 M78 62 L102 50 M78 62 L50 78 M78 62 L106 78", c.mark, 3, ' stroke-linecap="round" opacity=".9"');
      break;
    default:
      out +=
        shape("M46 86 Q48 50 78 46 Q108 50 110 86", "none", edge(c.mark, 2.5)) +
        shape("M58 86 Q60 60 78 58 Q96 60 98 86", "none", edge(c.mark, 2.5)) +
        ell(78, 78, 8, 7, c.mark);
  }
  out += shape("M36 86 H120 Q120 92 114 92 H42 Q36 92 36 86 Z", c.rim);
  return out;
}

// Hamsters: holding a seed with the head tilted, or up on the hind legs.
const HAMSTER_COATS = [
  { fur: "#e9a35f", belly: "#fdf0dc", paw: "#f3c7a0", mark: "#a8642a" },
  { fur: "#a8a29e", belly: "#f5f5f4", paw: "#f1c9c0", mark: "#57534e" },
  { fur: "#f7f3ee", belly: "#fff", paw: "#f6cfc4", mark: "#c08a54" },
  { fur: "#f3d2a2", belly: "#fffaf0", paw: "#f3c7a0", mark: "#b4773a" },
  { fur: "#a0693a", belly: "#f1dfc8", paw: "#e9b89a", mark: "#5c3a1a" },
  { fur: "#5b5550", belly: "#ece8e4", paw: "#e7b8ae", mark: "#e7e5e4" },
  { fur: "#d9794a", belly: "#fde6d2", paw: "#f3c1a3", mark: "#8a3b16" },
] as const;

function smallMammal({ colour, markings, pose }: Look): string {
  const c = pick(HAMSTER_COATS, colour);
  const standing = pose === 2;
  const paw = markings === 4 ? "#fff" : c.paw;
  const top = standing ? -10 : 0;
  let out = "";
  out += circle(56, 44 + top, 10, markings === 1 ? c.mark : c.fur) + circle(104, 44 + top, 10, c.fur);
  out += circle(56, 44 + top, 5, PINK) + circle(104, 44 + top, 5, PINK);
  out += standing ? ell(80, 70, 34, 38, c.fur) : ell(80, 74, 40, 32, c.fur);
  if (markings === 3) out += shape(`M75 ${43 + top} Q80 ${41 + top} 85 ${43 + top} L81 ${60 + top} H79 Z`, c.mark);
  if (markings === 2) out += circle(55, 86, 4, c.mark) + circle(106, 80, 3.4, c.mark) + circle(103, 92, 2.6, c.mark) + circle(66, 50 + top, 2.6, c.mark);
  if (markings === 1) out += ell(93, 63 + top, 8.5, 7.5, c.mark);
  out += standing ? ell(80, 84, 23, 24, c.belly) : ell(80, 86, 27, 20, c.belly);
  if (markings === 4) out += ell(80, 74 + top, 10, 6, "#fff");
  out += eye(67, 64 + top, 4) + eye(93, 64 + top, 4);
  out += ell(60, 74 + top, 7, 4.5, PINK, ' opacity=".8"') + ell(100, 74 + top, 7, 4.5, PINK, ' opacity=".8"');
  out += ell(80, 71 + top, 3, 2.2, "#be5a6a");
  out += line(`M80 ${73 + top} Q77 ${77 + top} 74 ${75 + top} M80 ${73 + top} Q83 ${77 + top} 86 ${75 + top}`, "#7c2d12", 1.3, ' stroke-linecap="round"');
  if (standing) {
    out += ell(70, 78, 5.5, 4, paw, rotate(30, 70, 78)) + ell(90, 78, 5.5, 4, paw, rotate(-30, 90, 78));
    out += ell(66, 106, 9, 4, paw) + ell(94, 106, 9, 4, paw);
    return out;
  }
  out += ell(80, 86, 5, 8, "#44403c") + line("M80 80 V92", "#f5f5f4", 1.5, ' stroke-linecap="round"');
  out += ell(72, 88, 5, 4, paw) + ell(88, 88, 5, 4, paw);
  out += ell(64, 104, 8, 4, paw) + ell(96, 104, 8, 4, paw);
  return group("rotate(-7 80 106)", out);
}

// A paw print, for a category we have no drawing of yet.
const PAW_COLOURS = [
  { paw: "#a8a29e", mark: "#f5f5f4" },
  { paw: "#b7763b", mark: "#fef3c7" },
  { paw: "#0f766e", mark: "#ccfbf1" },
  { paw: "#be5a6a", mark: "#ffe4e6" },
  { paw: "#6d28d9", mark: "#ede9fe" },
  { paw: "#4d7c0f", mark: "#ecfccb" },
  { paw: "#1d4ed8", mark: "#dbeafe" },
] as const;

/** public/pictures/paw.svg's print, filled by the group around it. */
const PAW_PRINT =
  '<path d="M80 58 C96 58 108 74 106 86 C104 96 94 96 80 92 C66 96 56 96 54 86 C52 74 64 58 80 58 Z"/>' +
  '<ellipse cx="56" cy="52" rx="8" ry="11" transform="rotate(-20 56 52)"/>' +
  '<ellipse cx="71" cy="36" rx="8" ry="11" transform="rotate(-6 71 36)"/>' +
  '<ellipse cx="89" cy="36" rx="8" ry="11" transform="rotate(6 89 36)"/>' +
  '<ellipse cx="104" cy="52" rx="8" ry="11" transform="rotate(20 104 52)"/>';

function paw({ colour, markings, pose }: Look): string {
  const c = pick(PAW_COLOURS, colour);
  let out = "";
  if (markings === 2) {
    const small = (x: number, y: number) => `<g fill="${c.paw}" opacity=".35" transform="translate(${x} ${y}) scale(.28)">${PAW_PRINT}</g>`;
    out += small(18, 84) + small(118, 8);
  }
  if (markings === 3) out += circle(80, 64, 46, "none", `${edge(c.paw, 2)} stroke-dasharray="2 6" stroke-linecap="round" opacity=".5"`);
  if (markings === 4) {
    const dots = [
      [30, 30],
      [132, 26],
      [26, 96],
      [136, 92],
      [118, 108],
    ] as const;
    out += dots.map(([x, y]) => circle(x, y, 3, c.paw, ' opacity=".4"')).join("");
  }
  let print = `<g fill="${c.paw}">${PAW_PRINT}</g>`;
  if (markings === 1) print += shape("M80 88 C72 82 70 76 74 73 C77 71 80 74 80 76 C80 74 83 71 86 73 C90 76 88 82 80 88 Z", c.mark);
  return out + group(pose === 2 ? "" : "rotate(-14 80 66)", print);
}

// --- Backdrops and scenes -------------------------------------------------------

const sun = (x: number, y: number, r: number, fill: string) => circle(x, y, r, fill);
const cloud = (x: number, y: number, s: number) => ell(x, y, 18 * s, 7 * s, "#fff") + ell(x + 8 * s, y - 5 * s, 10 * s, 7 * s, "#fff");

const KINDS: Record<AnimalKind, Kind> = {
  dog: {
    backdrop: rect(0, 0, 160, 120, "#fef3c7") + sun(132, 22, 12, "#fde68a") + shape("M0 104 Q80 92 160 104 V120 H0 Z", "#fcd34d"),
    animal: dog,
    ground: 116,
    scene: {
      sky: ["#fde9b0", "#fff7e0"],
      floor: ["#e9c46a", "#d4a53c"],
      props: (w, _h, floor, { colour }) => {
        let out = sun(w - 260, 200, 90, "#fff3c4");
        out += shape(
          `M0 ${floor - 120} Q${Math.round(w * 0.3)} ${floor - 260} ${Math.round(w * 0.62)} ${floor - 150} T${w} ${floor - 170} V${floor + 40} H0 Z`,
          "#c9d98f",
          ' opacity=".7"',
        );
        for (let x = 40; x < w; x += 110) out += rect(x, floor - 210, 44, 230, "#fffaf0", ' rx="10"');
        out += rect(0, floor - 170, w, 26, "#fffaf0") + rect(0, floor - 80, w, 26, "#fffaf0");
        const ball = pick(["#ef4444", "#2563eb", "#16a34a", "#f97316", "#7c3aed", "#0891b2", "#db2777"], colour);
        const bx = colour % 2 ? w - 190 : 190;
        out +=
          ell(bx, floor + 210, 80, 16, "#000", ' opacity=".12"') +
          circle(bx, floor + 150, 64, ball) +
          line(`M${bx - 62} ${floor + 134} Q${bx} ${floor + 180} ${bx + 62} ${floor + 134}`, "#fff", 12, ' opacity=".85"');
        return out;
      },
    },
  },
  cat: {
    backdrop: rect(0, 0, 160, 120, "#e0f2fe") + rect(0, 106, 160, 14, "#bae6fd"),
    animal: cat,
    ground: 115,
    scene: {
      sky: ["#dbeafe", "#eef6ff"],
      floor: ["#c9a27a", "#a97f57"],
      props: (w, _h, floor, { colour }) => {
        const x = colour % 2 ? 120 : w - 520;
        let out =
          rect(x, 140, 400, 460, "#fff", ' rx="18"') +
          rect(x + 24, 164, 352, 412, "#bfe3fb") +
          rect(x + 194, 164, 12, 412, "#fff") +
          rect(x + 24, 364, 352, 12, "#fff");
        out += shape(`M${x + 24} 164 H${x + 200} L${x + 24} 480 Z`, "#fff", ' opacity=".25"');
        out += rect(0, floor - 30, w, 30, "#f8fafc");
        for (let y = floor + 60; y < floor + 600; y += 90) out += line(`M0 ${y} H${w}`, "#a07650", 4, ' opacity=".45"');
        out += ell(
          w / 2,
          floor + 120,
          w * 0.36,
          110,
          pick(["#fda4af", "#a5b4fc", "#86efac", "#fcd34d", "#c4b5fd", "#67e8f9", "#fdba74"], colour),
          ' opacity=".85"',
        );
        const yarn = colour % 2 ? w - 200 : 200;
        out +=
          circle(yarn, floor + 170, 56, "#f472b6") +
          line(`M${yarn - 40} ${floor + 140} Q${yarn} ${floor + 190} ${yarn + 44} ${floor + 150}`, "#fbcfe8", 6) +
          line(`M${yarn - 50} ${floor + 176} Q${yarn} ${floor + 210} ${yarn + 50} ${floor + 180}`, "#fbcfe8", 6);
        return out;
      },
    },
  },
  rabbit: {
    backdrop:
      rect(0, 0, 160, 120, "#ffe4e6") + shape("M0 106 Q80 98 160 106 V120 H0 Z", "#bbf7d0") + line("M28 106 l3 -8 l3 8 M124 106 l3 -9 l3 9", "#16a34a", 2),
    animal: rabbit,
    ground: 115,
    scene: {
      sky: ["#fecdd3", "#fff1f2"],
      floor: ["#a7e3b4", "#6cc285"],
      props: (w, _h, floor) => {
        let out = cloud(300, 220, 6) + cloud(w - 340, 160, 5);
        out += shape(
          `M0 ${floor - 60} Q${Math.round(w * 0.25)} ${floor - 200} ${Math.round(w * 0.55)} ${floor - 80} T${w} ${floor - 120} V${floor + 10} H0 Z`,
          "#86d69b",
          ' opacity=".8"',
        );
        for (let i = 0; i < 9; i++) {
          const x = 90 + i * 180 + (i % 2) * 40;
          const y = floor + 60 + (i % 3) * 70;
          out += line(`M${x} ${y} l20 -60 l20 60`, "#22a04a", 12, ' stroke-linecap="round" stroke-linejoin="round"');
          if (i % 2 === 0) out += circle(x + 20, y - 80, 18, "#fff") + circle(x + 20, y - 80, 8, "#fbbf24");
        }
        return out;
      },
    },
  },
  bird: {
    backdrop: rect(0, 0, 160, 120, "#dbeafe") + ell(36, 28, 18, 7, "#fff") + ell(124, 20, 14, 5, "#fff"),
    animal: bird,
    ground: 100,
    scene: {
      sky: ["#93c5fd", "#e0f2fe"],
      props: (w, h, _floor, { colour }) => {
        let out = cloud(260, 200, 7) + cloud(w - 300, 300, 5) + cloud(w / 2, 120, 4);
        // Leaves of the tree the branch belongs to, out of focus at the edges.
        const side = colour % 2 ? w : 0;
        for (let i = 0; i < 6; i++) {
          const x = Math.abs(side - (40 + ((i * 89) % 260)));
          out += circle(x, h - 80 - i * 170, 110 + ((i * 37) % 60), i % 2 ? "#84cc16" : "#65a30d", ' opacity=".25"');
        }
        return out;
      },
    },
  },
  reptile: {
    backdrop: rect(0, 0, 160, 120, "#ecfccb") + sun(28, 24, 11, "#fef08a") + shape("M0 100 Q80 92 160 100 V120 H0 Z", "#d9f99d"),
    animal: reptile,
    ground: 102,
    scene: {
      sky: ["#fde68a", "#fef9e7"],
      floor: ["#f3d9a4", "#e2bd78"],
      props: (w, _h, floor, { pose }) => {
        let out = circle(220, 180, 120, "#fff7cc", ' opacity=".9"');
        out += shape(
          `M${w - 420} ${floor + 10} Q${w - 380} ${floor - 190} ${w - 240} ${floor - 200} Q${w - 100} ${floor - 170} ${w - 60} ${floor + 10} Z`,
          "#b9a58a",
        );
        out += shape(`M60 ${floor + 20} Q90 ${floor - 110} 200 ${floor - 100} Q300 ${floor - 80} 320 ${floor + 20} Z`, "#a8927a");
        // Behind the tail, not the head.
        const cx = pose === 1 ? w - 150 : 150;
        const cactus = `M${cx} ${floor} V${floor - 280} M${cx} ${floor - 150} H${cx - 70} V${floor - 230} M${cx} ${floor - 120} H${cx + 70} V${floor - 210}`;
        out += line(cactus, "#65a30d", 46, ' stroke-linecap="round" stroke-linejoin="round"');
        // Pebbles, scattered the same way every time.
        for (let i = 0; i < 14; i++) {
          out += ell(((i * 211) % (w - 80)) + 40, floor + 80 + ((i * 97) % 180), 14 + (i % 3) * 6, 9 + (i % 3) * 3, "#c9a063", ' opacity=".6"');
        }
        return out;
      },
    },
  },
  "small-mammal": {
    backdrop:
      rect(0, 0, 160, 120, "#ffedd5") +
      rect(0, 104, 160, 16, "#fed7aa") +
      line("M20 108 h12 M120 110 h16 M60 112 h10", "#fdba74", 3, ' stroke-linecap="round"'),
    animal: smallMammal,
    ground: 107,
    scene: {
      sky: ["#ffe4c7", "#fff5ea"],
      floor: ["#f8d9a8", "#eebf7c"],
      props: (w, _h, floor, { colour }) => {
        const x = colour % 2 ? 250 : w - 250;
        let out = circle(x, floor - 260, 230, "none", edge("#93c5fd", 28)) + circle(x, floor - 260, 26, "#93c5fd");
        for (let a = 0; a < 8; a++) {
          const [dx, dy] = [Math.round(216 * Math.cos((a * Math.PI) / 4)), Math.round(216 * Math.sin((a * Math.PI) / 4))];
          out += line(`M${x} ${floor - 260} l${dx} ${dy}`, "#bfdbfe", 10);
        }
        out += shape(`M${x - 120} ${floor + 20} L${x} ${floor - 260} L${x + 120} ${floor + 20} Z`, "#60a5fa");
        // Wood shavings, scattered the same way every time.
        for (let i = 0; i < 40; i++) {
          const d = `M${(i * 163) % w} ${floor + 40 + ((i * 71) % 240)} l${30 + (i % 4) * 8} ${(i % 5) - 2}`;
          out += line(d, "#e5a55a", 9, ' stroke-linecap="round" opacity=".7"');
        }
        return out;
      },
    },
  },
  paw: {
    backdrop: rect(0, 0, 160, 120, "#f5f5f4"),
    animal: paw,
    ground: 104,
    scene: {
      sky: ["#f5f5f4", "#fafaf9"],
      floor: ["#e7e5e4", "#d6d3d1"],
      props: () => "",
    },
  },
};

function kindOf(kind: AnimalKind): Kind {
  const found = KINDS[kind];
  if (!found) throw new RangeError("unknown kind");
  return found;
}

/** The animal in its pose, in the 160x120 picture's coordinates. */
function animalOf(kind: AnimalKind, look: Look): string {
  const drawn = kindOf(kind).animal(look);
  return look.pose === 1 ? group(MIRROR, drawn) : drawn;
}

/** The small picture: a complete SVG document, 160x120, a few kB. */
export function drawAnimal(kind: AnimalKind, variant: number): string {
  const look = lookOf(variant);
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 120" width="160" height="120">' + kindOf(kind).backdrop + animalOf(kind, look) + "</svg>";
}

export type Orientation = "landscape" | "portrait";

/**
 * A large scene for demo photos: a room or a garden with a few props, soft
 * light and the animal in the middle of the floor; 1600x1200, or 1200x1600
 * upright.
 */
export function drawScene(kind: AnimalKind, variant: number, options: { orientation?: Orientation } = {}): string {
  const look = lookOf(variant);
  const { scene, ground } = kindOf(kind);
  const portrait = options.orientation === "portrait";
  const [w, h] = portrait ? [1200, 1600] : [1600, 1200];
  const floor = Math.round(h * (portrait ? 0.62 : 0.56));
  // Close up, as a photographer would: the picture's empty margins fall
  // outside the frame, and its lowest point (y=118) sits near the bottom.
  const scale = portrait ? 9.2 : 9.6;
  const x = round(w / 2 - 80 * scale);
  const y = round(h - (portrait ? 60 : 50) - 118 * scale);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">` +
    "<defs>" +
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.sky[0]}"/><stop offset="1" stop-color="${scene.sky[1]}"/></linearGradient>` +
    (scene.floor
      ? `<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${scene.floor[0]}"/><stop offset="1" stop-color="${scene.floor[1]}"/></linearGradient>`
      : "") +
    '<radialGradient id="shadow"><stop offset="0" stop-color="#000" stop-opacity=".28"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>' +
    '<radialGradient id="light" cx=".5" cy=".42" r=".75"><stop offset=".55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".28"/></radialGradient>' +
    "</defs>" +
    rect(0, 0, w, h, "url(#sky)") +
    (scene.floor ? rect(0, floor, w, h - floor, "url(#floor)") : "") +
    scene.props(w, h, floor, look) +
    (scene.floor ? ell(w / 2, round(y + ground * scale), round(52 * scale), round(7 * scale), "url(#shadow)") : "") +
    group(`translate(${x} ${y}) scale(${scale})`, animalOf(kind, look)) +
    rect(0, 0, w, h, "url(#light)") +
    "</svg>"
  );
}
