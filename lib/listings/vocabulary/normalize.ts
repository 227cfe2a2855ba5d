// How names typed by people or found in files are compared with the sites'
// names: case, accents, punctuation and spacing do not count, so
// "domestic shorthair", "Domestic Short-Hair" and "Domestic Short Hair" are
// one name, and "Small & Furry" is "Small&Furry".

export function normalizeName(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}
