import type { PictureProps } from "@/components/pets/picture-props";

/**
 * The frame every drawn animal shares: one size (160×120, so cards line up),
 * a background colour, and decorative semantics (the card writes the
 * category out, so screen readers skip the drawing).
 */
export function PictureCanvas({ className, background, children }: PictureProps & { background: string; children: React.ReactNode }) {
  return (
    <svg viewBox="0 0 160 120" className={className} aria-hidden="true" focusable="false">
      <rect width="160" height="120" fill={background} />
      {children}
    </svg>
  );
}
