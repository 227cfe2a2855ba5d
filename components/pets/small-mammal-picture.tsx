import { PictureCanvas } from "@/components/pets/picture-canvas";
import type { PictureProps } from "@/components/pets/picture-props";

/** A hamster with a seed, drawn (no image is downloaded). */
export function SmallMammalPicture({ className }: PictureProps) {
  return (
    <PictureCanvas className={className} background="#ffedd5">
      <path d="M0 104 H160 V120 H0 Z" fill="#fed7aa" />
      <path d="M20 108 h12 M120 110 h16 M60 112 h10" stroke="#fdba74" strokeWidth="3" strokeLinecap="round" />
      <circle cx="56" cy="44" r="10" fill="#e9a35f" />
      <circle cx="104" cy="44" r="10" fill="#e9a35f" />
      <circle cx="56" cy="44" r="5" fill="#f9b8c4" />
      <circle cx="104" cy="44" r="5" fill="#f9b8c4" />
      <ellipse cx="80" cy="74" rx="40" ry="32" fill="#e9a35f" />
      <ellipse cx="80" cy="86" rx="27" ry="20" fill="#fdf0dc" />
      <circle cx="67" cy="64" r="4" fill="#1c1917" />
      <circle cx="93" cy="64" r="4" fill="#1c1917" />
      <circle cx="68.2" cy="62.8" r="1.2" fill="#fff" />
      <circle cx="94.2" cy="62.8" r="1.2" fill="#fff" />
      <ellipse cx="60" cy="74" rx="7" ry="4.5" fill="#f9b8c4" opacity="0.8" />
      <ellipse cx="100" cy="74" rx="7" ry="4.5" fill="#f9b8c4" opacity="0.8" />
      <ellipse cx="80" cy="71" rx="3" ry="2.2" fill="#be5a6a" />
      <path d="M80 73 Q77 77 74 75 M80 73 Q83 77 86 75" stroke="#7c2d12" strokeWidth="1.3" fill="none" strokeLinecap="round" />
      <ellipse cx="80" cy="86" rx="5" ry="8" fill="#44403c" />
      <path d="M80 80 V92" stroke="#f5f5f4" strokeWidth="1.5" strokeLinecap="round" />
      <ellipse cx="72" cy="88" rx="5" ry="4" fill="#f3c7a0" />
      <ellipse cx="88" cy="88" rx="5" ry="4" fill="#f3c7a0" />
      <ellipse cx="64" cy="104" rx="8" ry="4" fill="#f3c7a0" />
      <ellipse cx="96" cy="104" rx="8" ry="4" fill="#f3c7a0" />
    </PictureCanvas>
  );
}
