import { PictureCanvas } from "@/components/pets/picture-canvas";
import type { PictureProps } from "@/components/pets/picture-props";

/** A floppy-eared dog, drawn (no image is downloaded). */
export function DogPicture({ className }: PictureProps) {
  return (
    <PictureCanvas className={className} background="#fef3c7">
      <circle cx="132" cy="22" r="12" fill="#fde68a" />
      <path d="M0 104 Q80 92 160 104 V120 H0 Z" fill="#fcd34d" />
      <ellipse cx="80" cy="102" rx="34" ry="18" fill="#b7763b" />
      <ellipse cx="80" cy="106" rx="16" ry="10" fill="#f3dcb4" />
      <ellipse cx="53" cy="54" rx="10" ry="22" transform="rotate(18 53 54)" fill="#7c4a1e" />
      <ellipse cx="107" cy="54" rx="10" ry="22" transform="rotate(-18 107 54)" fill="#7c4a1e" />
      <ellipse cx="80" cy="56" rx="27" ry="26" fill="#d39a5a" />
      <ellipse cx="90" cy="48" rx="9" ry="8" fill="#b7763b" />
      <ellipse cx="80" cy="69" rx="15" ry="11" fill="#f3dcb4" />
      <circle cx="70" cy="50" r="3.6" fill="#2b1a0d" />
      <circle cx="90" cy="50" r="3.6" fill="#2b1a0d" />
      <circle cx="71.2" cy="48.8" r="1.1" fill="#fff" />
      <circle cx="91.2" cy="48.8" r="1.1" fill="#fff" />
      <ellipse cx="80" cy="63" rx="5.5" ry="4" fill="#2b1a0d" />
      <path d="M80 67 V71 M73 71 Q80 77 87 71" stroke="#2b1a0d" strokeWidth="1.8" fill="none" strokeLinecap="round" />
      <path d="M77 74 Q80 82 83 74 Z" fill="#e8778b" />
    </PictureCanvas>
  );
}
