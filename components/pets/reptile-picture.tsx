import { PictureCanvas } from "@/components/pets/picture-canvas";
import type { PictureProps } from "@/components/pets/picture-props";

/** A tortoise, drawn (no image is downloaded). */
export function ReptilePicture({ className }: PictureProps) {
  return (
    <PictureCanvas className={className} background="#ecfccb">
      <circle cx="28" cy="24" r="11" fill="#fef08a" />
      <path d="M0 100 Q80 92 160 100 V120 H0 Z" fill="#d9f99d" />
      <ellipse cx="52" cy="94" rx="8" ry="9" fill="#84cc16" />
      <ellipse cx="104" cy="94" rx="8" ry="9" fill="#84cc16" />
      <path d="M40 84 L28 90 L40 90 Z" fill="#84cc16" />
      <path d="M114 78 Q124 62 134 66 Q144 70 140 80 Q134 88 118 86 Z" fill="#84cc16" />
      <circle cx="133" cy="72" r="2.8" fill="#1c1917" />
      <path d="M134 80 Q138 80 140 78" stroke="#365314" strokeWidth="1.4" fill="none" strokeLinecap="round" />
      <path d="M38 86 Q40 40 78 38 Q116 40 118 86 Z" fill="#4d7c0f" />
      <path d="M36 86 H120 Q120 92 114 92 H42 Q36 92 36 86 Z" fill="#3f6212" />
      <path d="M66 50 L90 50 L98 66 L90 82 L66 82 L58 66 Z" fill="#65a30d" stroke="#365314" strokeWidth="2" />
      <path d="M66 50 L58 42 M90 50 L98 42 M58 66 H44 M98 66 H112 M66 82 L60 86 M90 82 L96 86" stroke="#365314" strokeWidth="2" />
    </PictureCanvas>
  );
}
