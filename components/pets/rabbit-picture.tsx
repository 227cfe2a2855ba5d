import { PictureCanvas } from "@/components/pets/picture-canvas";
import type { PictureProps } from "@/components/pets/picture-props";

/** A long-eared rabbit, drawn (no image is downloaded). */
export function RabbitPicture({ className }: PictureProps) {
  return (
    <PictureCanvas className={className} background="#ffe4e6">
      <path d="M0 106 Q80 98 160 106 V120 H0 Z" fill="#bbf7d0" />
      <path d="M28 106 l3 -8 l3 8 M124 106 l3 -9 l3 9" stroke="#16a34a" strokeWidth="2" fill="none" />
      <ellipse cx="68" cy="32" rx="8" ry="24" transform="rotate(-10 68 32)" fill="#f5f5f4" stroke="#d6d3d1" strokeWidth="1.5" />
      <ellipse cx="92" cy="32" rx="8" ry="24" transform="rotate(10 92 32)" fill="#f5f5f4" stroke="#d6d3d1" strokeWidth="1.5" />
      <ellipse cx="68" cy="33" rx="3.5" ry="17" transform="rotate(-10 68 33)" fill="#f9b8c4" />
      <ellipse cx="92" cy="33" rx="3.5" ry="17" transform="rotate(10 92 33)" fill="#f9b8c4" />
      <ellipse cx="80" cy="98" rx="30" ry="16" fill="#f5f5f4" stroke="#d6d3d1" strokeWidth="1.5" />
      <circle cx="110" cy="100" r="7" fill="#fff" stroke="#d6d3d1" strokeWidth="1.5" />
      <circle cx="80" cy="66" r="23" fill="#f5f5f4" stroke="#d6d3d1" strokeWidth="1.5" />
      <circle cx="71" cy="62" r="3.5" fill="#1c1917" />
      <circle cx="89" cy="62" r="3.5" fill="#1c1917" />
      <circle cx="72" cy="61" r="1" fill="#fff" />
      <circle cx="90" cy="61" r="1" fill="#fff" />
      <ellipse cx="66" cy="72" rx="5" ry="3" fill="#fecdd3" />
      <ellipse cx="94" cy="72" rx="5" ry="3" fill="#fecdd3" />
      <path d="M77 70 H83 L80 73 Z" fill="#e8778b" />
      <path d="M80 73 V76 M80 76 Q77 79 74 77 M80 76 Q83 79 86 77" stroke="#57534e" strokeWidth="1.4" fill="none" strokeLinecap="round" />
      <rect x="77.5" y="77" width="5" height="4" rx="1" fill="#fff" stroke="#d6d3d1" strokeWidth="0.8" />
      <path d="M70 73 L52 70 M70 75 L53 78 M90 73 L108 70 M90 75 L107 78" stroke="#78716c" strokeWidth="1" strokeLinecap="round" />
    </PictureCanvas>
  );
}
