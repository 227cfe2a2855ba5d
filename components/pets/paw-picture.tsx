import { PictureCanvas } from "@/components/pets/picture-canvas";
import type { PictureProps } from "@/components/pets/picture-props";

/** A paw print: the picture for a category without a drawing of its own. */
export function PawPicture({ className }: PictureProps) {
  return (
    <PictureCanvas className={className} background="#f5f5f4">
      <g fill="#a8a29e">
        <path d="M80 58 C96 58 108 74 106 86 C104 96 94 96 80 92 C66 96 56 96 54 86 C52 74 64 58 80 58 Z" />
        <ellipse cx="56" cy="52" rx="8" ry="11" transform="rotate(-20 56 52)" />
        <ellipse cx="71" cy="36" rx="8" ry="11" transform="rotate(-6 71 36)" />
        <ellipse cx="89" cy="36" rx="8" ry="11" transform="rotate(6 89 36)" />
        <ellipse cx="104" cy="52" rx="8" ry="11" transform="rotate(20 104 52)" />
      </g>
    </PictureCanvas>
  );
}
