import { PictureCanvas } from "@/components/pets/picture-canvas";
import type { PictureProps } from "@/components/pets/picture-props";

/** A budgie on a branch, drawn (no image is downloaded). */
export function BirdPicture({ className }: PictureProps) {
  return (
    <PictureCanvas className={className} background="#dbeafe">
      <ellipse cx="36" cy="28" rx="18" ry="7" fill="#fff" />
      <ellipse cx="124" cy="20" rx="14" ry="5" fill="#fff" />
      <path d="M12 98 Q80 86 148 100" stroke="#7c4a1e" strokeWidth="7" fill="none" strokeLinecap="round" />
      <ellipse cx="128" cy="90" rx="9" ry="4" transform="rotate(-25 128 90)" fill="#4d7c0f" />
      <ellipse cx="28" cy="88" rx="9" ry="4" transform="rotate(20 28 88)" fill="#4d7c0f" />
      <path d="M58 74 L32 90 L40 72 Z" fill="#1d4ed8" />
      <ellipse cx="76" cy="66" rx="25" ry="23" fill="#22c55e" />
      <ellipse cx="82" cy="72" rx="14" ry="15" fill="#bef264" />
      <circle cx="92" cy="44" r="16" fill="#fde047" />
      <path d="M60 58 Q70 52 84 62 Q76 80 58 78 Z" fill="#15803d" />
      <path d="M64 64 Q70 62 76 66 M62 70 Q68 68 74 72" stroke="#14532d" strokeWidth="1.5" fill="none" />
      <circle cx="97" cy="41" r="3.2" fill="#1c1917" />
      <circle cx="97.8" cy="40.2" r="1" fill="#fff" />
      <path d="M106 44 Q116 46 108 54 Z" fill="#f97316" />
      <circle cx="101" cy="52" r="2" fill="#2563eb" />
      <path d="M74 88 V94 M84 88 V94 M71 95 H77 M81 95 H87" stroke="#9a3412" strokeWidth="2" strokeLinecap="round" />
    </PictureCanvas>
  );
}
