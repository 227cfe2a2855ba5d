import { PictureCanvas } from "@/components/pets/picture-canvas";
import type { PictureProps } from "@/components/pets/picture-props";

/** A tabby cat, drawn (no image is downloaded). */
export function CatPicture({ className }: PictureProps) {
  return (
    <PictureCanvas className={className} background="#e0f2fe">
      <path d="M0 106 H160 V120 H0 Z" fill="#bae6fd" />
      <path d="M106 100 Q136 96 130 70 Q127 58 136 52" stroke="#e08a2e" strokeWidth="7" fill="none" strokeLinecap="round" />
      <ellipse cx="80" cy="96" rx="30" ry="20" fill="#f2a444" />
      <path d="M56 46 L58 20 L78 36 Z" fill="#f2a444" />
      <path d="M104 46 L102 20 L82 36 Z" fill="#f2a444" />
      <path d="M60 40 L61 27 L72 36 Z" fill="#f9b8c4" />
      <path d="M100 40 L99 27 L88 36 Z" fill="#f9b8c4" />
      <ellipse cx="80" cy="56" rx="28" ry="24" fill="#f2a444" />
      <path d="M72 34 L74 42 M80 33 V42 M88 34 L86 42" stroke="#c96f1c" strokeWidth="2.5" strokeLinecap="round" />
      <ellipse cx="69" cy="53" rx="5" ry="6" fill="#4d7c0f" />
      <ellipse cx="91" cy="53" rx="5" ry="6" fill="#4d7c0f" />
      <ellipse cx="69" cy="53" rx="1.6" ry="5" fill="#1c1917" />
      <ellipse cx="91" cy="53" rx="1.6" ry="5" fill="#1c1917" />
      <path d="M76.5 62 H83.5 L80 66 Z" fill="#e8778b" />
      <path d="M80 66 Q77 71 72 69 M80 66 Q83 71 88 69" stroke="#7c2d12" strokeWidth="1.6" fill="none" strokeLinecap="round" />
      <path d="M64 64 L42 60 M64 67 L43 69 M96 64 L118 60 M96 67 L117 69" stroke="#7c2d12" strokeWidth="1.2" strokeLinecap="round" />
      <path d="M68 106 Q72 98 76 106 M84 106 Q88 98 92 106" stroke="#c96f1c" strokeWidth="2" fill="none" />
    </PictureCanvas>
  );
}
