import type { ComponentType } from "react";
import { BirdPicture } from "@/components/pets/bird-picture";
import { CatPicture } from "@/components/pets/cat-picture";
import { DogPicture } from "@/components/pets/dog-picture";
import { PawPicture } from "@/components/pets/paw-picture";
import type { PictureProps } from "@/components/pets/picture-props";
import { RabbitPicture } from "@/components/pets/rabbit-picture";
import { ReptilePicture } from "@/components/pets/reptile-picture";
import { SmallMammalPicture } from "@/components/pets/small-mammal-picture";

// Pictures are chosen by the category's name (ids differ between
// databases); a category added later gets the paw print until it has one.
const PICTURES: Record<string, ComponentType<PictureProps>> = {
  dogs: DogPicture,
  cats: CatPicture,
  rabbits: RabbitPicture,
  birds: BirdPicture,
  reptiles: ReptilePicture,
  "small mammals": SmallMammalPicture,
};

/** The drawing for an animal's category; decorative, as the category is also written out. */
export function PetPicture({ categoryName, className }: PictureProps & { categoryName: string | undefined }) {
  const Picture = (categoryName && PICTURES[categoryName.trim().toLowerCase()]) || PawPicture;
  return <Picture className={className} />;
}
