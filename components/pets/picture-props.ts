/** What every drawn animal picture accepts: sizing comes from the caller. */
export interface PictureProps {
  className?: string;
}
