import { textLinkClass } from "@/components/pets/styles";

/** A paragraph of its own, so the pages' vertical spacing applies to it. */
export function BackToBrowseLink() {
  return (
    <p>
      <a href="/" className={textLinkClass}>
        <span aria-hidden="true">←</span> Back to the animals
      </a>
    </p>
  );
}
