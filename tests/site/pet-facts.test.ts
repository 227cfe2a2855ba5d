import { describe, expect, it } from "vitest";
import { breedText, careFacts, feeText } from "@/components/pets/pet-facts";
import type { Pet } from "@/lib/pets/schemas/pet";
import { LISTING_UNKNOWN } from "@/tests/listing-unknown";
import { translator } from "../i18n";

const t = translator("en", "Pet");

// The animal's page says what is known in plain words, and nothing for what is not.

const UNKNOWN: Pet = {
  id: 1,
  name: "Maple",
  categoryId: 1,
  organizationId: 1,
  status: "available",
  version: 1,
  sex: "unknown",
  size: null,
  birthDate: null,
  ageGroup: null,
  breed: null,
  description: null,
  goodWith: { children: null, dogs: null, cats: null },
  ...LISTING_UNKNOWN,
  colors: [],
  tags: [],
  photos: [],
  inFosterHome: false,
  fosterHome: null,
};
const pet = (fields: Partial<Pet>): Pet => ({ ...UNKNOWN, ...fields });
const words = (p: Pet) => careFacts(p, t, "en").map((f) => (f.detail ? `${f.text}: ${f.detail}` : f.text));

describe("the care facts", () => {
  it("say nothing at all when nothing is known", () => {
    expect(words(UNKNOWN)).toEqual([]);
    expect([breedText(UNKNOWN, t), feeText(UNKNOWN, t, "en")]).toEqual([null, null]);
  });

  it("say spayed or neutered by the animal's sex", () => {
    expect(words(pet({ spayedNeutered: true, sex: "female" }))).toEqual(["Spayed"]);
    expect(words(pet({ spayedNeutered: true, sex: "male" }))).toEqual(["Neutered"]);
    expect(words(pet({ spayedNeutered: true }))).toEqual(["Spayed/neutered"]);
    expect(words(pet({ spayedNeutered: false, sex: "male" }))).toEqual(["Not neutered"]);
  });

  it("say every known answer, yes or no, in a fixed order", () => {
    expect(
      words(
        pet({
          houseTrained: true,
          shotsCurrent: true,
          declawed: false,
          specialNeeds: true,
          specialNeedsNotes: "Deaf; knows hand signals.",
          intakeDate: "2026-10-02",
        }),
      ),
    ).toEqual(["House-trained", "Shots up to date", "Not declawed", "Special needs: Deaf; knows hand signals.", "At the shelter since 2 October 2026"]);
    expect(words(pet({ houseTrained: false, shotsCurrent: false, declawed: true, specialNeeds: false }))).toEqual([
      "Not house-trained",
      "Shots not up to date",
      "Declawed",
      "No special needs",
    ]);
    expect(words(pet({ specialNeeds: true }))).toEqual(["Special needs"]);
  });

  it("say the fee, or that it is waived", () => {
    expect(words(pet({ adoptionFee: { amountCents: 15000, currency: "USD", waived: false } }))).toEqual(["Adoption fee $150"]);
    expect(feeText(pet({ adoptionFee: { amountCents: 7550, currency: "CAD", waived: false } }), t, "en")).toBe("Adoption fee CA$75.50");
    expect(words(pet({ adoptionFee: { amountCents: 15000, currency: "USD", waived: true } }))).toEqual(["Fee waived"]);
  });

  it("say the breeds and a mix", () => {
    expect(breedText(pet({ breed: "Labrador", secondaryBreed: "Border collie", mixedBreed: true }), t)).toBe("Labrador / Border collie mix");
    expect(breedText(pet({ breed: "Labrador mix", mixedBreed: true }), t)).toBe("Labrador mix");
    expect(breedText(pet({ breed: "Siamese", mixedBreed: false }), t)).toBe("Siamese, purebred");
    expect(breedText(pet({ mixedBreed: true }), t)).toBe("Mixed breed");
    expect(breedText(pet({ mixedBreed: false }), t)).toBeNull();
  });
});
