import fs from "node:fs";
import path from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { dayText, feeText } from "@/components/pets/pet-facts";
import { nearWords, parseBrowseQuery } from "@/components/pets/browse-query";
import { localePath, preferredLocale, splitLocale } from "@/lib/i18n/locales";
import { countArgs, INTL_LOCALE, wholeNumber } from "@/lib/i18n/numbers";
import { categoryLabel, milesAwayLabel } from "@/lib/i18n/words";
import { LISTING_UNKNOWN } from "@/tests/listing-unknown";
import type { Pet } from "@/lib/pets/schemas/pet";
import { MESSAGES, translator } from "../i18n";

// The site in two languages (issue 36): both message files say the same
// things with the same arguments, every message is valid ICU, the fixed
// words of data are formatted for each language, and the adopter pages
// translated so far carry no English of their own.

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(name, value);
    else for (const [k, v] of flatten(value, name)) out.set(k, v);
  }
  return out;
}

/** The arguments a message takes ("count", "name"…), from its parsed form. */
function argumentsOf(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: unknown[]) => {
    for (const node of nodes as { type: number; value?: string; options?: Record<string, { value: unknown[] }> }[]) {
      if (node.type !== 0 && node.type !== 7 && node.value) names.add(node.value);
      for (const option of Object.values(node.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst());
  return [...names].sort();
}

const en = flatten(MESSAGES.en as Tree);
const es = flatten(MESSAGES.es as Tree);

describe("the message files", () => {
  it("have exactly the same keys", () => {
    expect([...es.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it("are valid ICU, with the same arguments in both languages", () => {
    for (const [key, english] of en) {
      const spanish = es.get(key)!;
      expect(argumentsOf(spanish, "es"), key).toEqual(argumentsOf(english, "en"));
      expect(spanish.trim(), key).not.toBe("");
    }
  });

  it("count with ICU plurals: 1 animal, 3 animales", () => {
    const browse = { en: translator("en", "Browse"), es: translator("es", "Browse") };
    expect(browse.en("summaryNewest", countArgs(1, "en"))).toBe("Showing 1 animal, newest first");
    expect(browse.en("summaryNewest", countArgs(3, "en"))).toBe("Showing 3 animals, newest first");
    expect(browse.es("summaryNewest", countArgs(1, "es"))).toBe("Se muestra 1 animal, los más recientes primero");
    expect(browse.es("summaryNewest", countArgs(3, "es"))).toBe("Se muestran 3 animales, los más recientes primero");
    const filters = translator("es", "Filters");
    expect(filters("showCount", countArgs(1, "es"))).toBe("Ver 1 animal");
    // US Spanish groups thousands with a comma (Spain's "12.000" would read as twelve here).
    expect(filters("showCount", countArgs(1200, "es"))).toBe("Ver 1,200 animales");
    expect(filters("countMatch", countArgs(12000, "es"))).toBe("12,000 animales coinciden");
    expect(translator("en", "Saved")("count", countArgs(1, "en"))).toBe("1 saved animal");
    expect(translator("es", "Empty")("clearAnimalFilters", { count: 2 })).toBe("Borrar los filtros del animal");
  });

  it("never count with ICU's #: the counts are written by wholeNumber, which needs no Intl for small ones", () => {
    // "#" makes the page's first Intl.NumberFormat in the browser, whose
    // locale data costs the first page about 150 ms of blocking time on a
    // phone (lib/i18n/numbers.ts): a counting message takes `{shown}` instead.
    const pound = (nodes: unknown[]): boolean =>
      (nodes as { type: number; options?: Record<string, { value: unknown[] }> }[]).some(
        (n) => n.type === 7 || Object.values(n.options ?? {}).some((o) => pound(o.value)),
      );
    for (const [locale, messages] of [
      ["en", en],
      ["es", es],
    ] as const) {
      const counting = [...messages].filter(([, message]) => pound(new IntlMessageFormat(message, locale).getAst())).map(([key]) => key);
      expect(counting, locale).toEqual([]);
    }
  });
});

describe("whole numbers", () => {
  it("are their digits below 1,000 and US-grouped above, in both languages", () => {
    expect(wholeNumber(0, "en")).toBe("0");
    expect(wholeNumber(20, "es")).toBe("20");
    expect(wholeNumber(999, "es")).toBe("999");
    expect(wholeNumber(-12, "en")).toBe("-12");
    expect(wholeNumber(1200, "en")).toBe("1,200");
    expect(wholeNumber(1200, "es")).toBe("1,200");
    expect(wholeNumber(1_234_567, "es")).toBe("1,234,567");
    // Every number from 0 to 999 reads as Intl writes it, so skipping Intl changes no text.
    for (const locale of ["en", "es"] as const) {
      const intl = new Intl.NumberFormat(INTL_LOCALE[locale]);
      for (let n = 0; n < 1000; n++) expect(wholeNumber(n, locale)).toBe(intl.format(n));
    }
  });
});

describe("the fixed words of data, per language", () => {
  const words = { en: translator("en", "Words"), es: translator("es", "Words") };

  it("names the usual categories, and keeps a shelter's own as written", () => {
    expect(categoryLabel(words.es, "Dogs")).toBe("Perros");
    expect(categoryLabel(words.es, "Small mammals")).toBe("Pequeños mamíferos");
    expect(categoryLabel(words.en, "Small mammals")).toBe("Small mammals");
    expect(categoryLabel(words.es, "Ferrets")).toBe("Ferrets");
    expect(categoryLabel(words.es, undefined)).toBe("Categoría desconocida");
  });

  it("says distances in miles: 12 mi away, a 12 mi", () => {
    expect(milesAwayLabel(words.en, 19.3, "en")).toBe("12 mi away");
    expect(milesAwayLabel(words.es, 19.3, "es")).toBe("a 12 mi");
    expect(milesAwayLabel(words.es, 2000, "es")).toBe("a 1,243 mi");
    expect(milesAwayLabel(words.es, 0.8, "es")).toBe("A menos de una milla");
    const near = parseBrowseQuery((name) => new URLSearchParams("near=60601&within=25mi").get(name));
    expect(nearWords(near, translator("es", "Browse"))).toBe("a menos de 25 mi de 60601");
  });

  it("writes dates and fees for the language", () => {
    expect(dayText("2024-03-12", "en")).toBe("12 March 2024");
    expect(dayText("2024-03-12", "es")).toBe("12 de marzo de 2024");
    const pet = (adoptionFee: Pet["adoptionFee"]) => ({ ...LISTING_UNKNOWN, adoptionFee }) as unknown as Pet;
    const fee = { en: translator("en", "Pet"), es: translator("es", "Pet") };
    expect(feeText(pet({ amountCents: 15000, currency: "USD", waived: false }), fee.en, "en")).toBe("Adoption fee $150");
    expect(feeText(pet({ amountCents: 150050, currency: "USD", waived: false }), fee.es, "es")).toBe("Tarifa de adopción: $1,500.50");
    expect(feeText(pet({ amountCents: 0, currency: "USD", waived: true }), fee.es, "es")).toBe("Sin tarifa de adopción");
  });

  it("says the care facts that depend on the sex in Spanish too", () => {
    const t = translator("es", "Pet");
    expect(t("spayedNeutered", { sex: "female" })).toBe("Esterilizada");
    expect(t("spayedNeutered", { sex: "male" })).toBe("Castrado");
  });
});

describe("the addresses", () => {
  it("keeps English at today's URLs and puts Spanish under /es", () => {
    expect(localePath("en", "/pets/12")).toBe("/pets/12");
    expect(localePath("es", "/pets/12")).toBe("/es/pets/12");
    expect(localePath("es", "/")).toBe("/es");
    expect(localePath("es", "/?category=2")).toBe("/es?category=2");
    expect(splitLocale("/es/pets/12")).toEqual({ locale: "es", path: "/pets/12" });
    expect(splitLocale("/es")).toEqual({ locale: "es", path: "/" });
    expect(splitLocale("/essays")).toEqual({ locale: "en", path: "/essays" });
    expect(splitLocale("/en/pets/1")).toEqual({ locale: "en", path: "/en/pets/1" });
  });

  it("reads Accept-Language by preference", () => {
    expect(preferredLocale("es-US,es;q=0.9,en;q=0.8")).toBe("es");
    expect(preferredLocale("en-US,en;q=0.9,es;q=0.8")).toBe("en");
    expect(preferredLocale("fr-FR,es;q=0.5")).toBe("es");
    expect(preferredLocale("de,fr")).toBe("en");
    expect(preferredLocale("es;q=0")).toBe("en");
    expect(preferredLocale(null)).toBe("en");
  });
});

/**
 * The adopter-facing files translated so far (issue 36): none may say
 * anything in English of its own. JSX text, and the attributes people read
 * (aria-label, alt, title, placeholder), must come from the messages.
 * Brand names and symbols are allowed.
 */
const TRANSLATED = [
  "app/layout.tsx",
  "app/(site)/page.tsx",
  "app/(site)/pets/[id]/page.tsx",
  "app/(site)/pets/[id]/not-found.tsx",
  "components/site-nav.tsx",
  "components/site-header.tsx",
  "components/language-switcher.tsx",
  "components/saved/saved-nav-link.tsx",
  "components/saved/save-button.tsx",
  "components/saved/save-toggle.tsx",
  "components/pets/pet-browser.tsx",
  "components/pets/status-tabs.tsx",
  "components/pets/search-box.tsx",
  "components/pets/pager.tsx",
  "components/pets/browse-filters.tsx",
  "components/pets/filter-sheet.tsx",
  "components/pets/browse-empty-state.tsx",
  "components/pets/browse-load-error.tsx",
  "components/pets/pet-card.tsx",
  "components/pets/status-badge.tsx",
  "components/pets/pet-details.tsx",
  "components/pets/pet-profile.tsx",
  "components/pets/pet-facts.tsx",
  "components/pets/pet-gallery.tsx",
  "components/pets/back-to-browse-link.tsx",
  "components/pets/pet-load-failed.tsx",
  "components/shelters/pet-shelter.tsx",
  "components/adopt/apply-panel.tsx",
  "components/adopt/apply-form.tsx",
  "components/alerts/alert-panel.tsx",
  "components/pets/near-box.tsx",
  "app/(site)/saved/page.tsx",
  "components/saved/saved-list.tsx",
  "app/(site)/applications/[token]/page.tsx",
  "app/(site)/applications/[token]/not-found.tsx",
  "components/adopt/application-status.tsx",
  "app/(site)/alerts/[token]/page.tsx",
  "app/(site)/alerts/[token]/not-found.tsx",
  "components/alerts/alert-manager.tsx",
  "app/(site)/shelters/[slug]/page.tsx",
  "app/(site)/shelters/[slug]/not-found.tsx",
  "components/shelters/shelter-contact.tsx",
  "components/shelters/load-failed.tsx",
  "components/shelters/pager-links.tsx",
  "components/alerts/alert-form.tsx",
  "app/(site)/shelters/page.tsx",
  "components/shelters/shelter-search.tsx",
  "components/shelters/use-my-location.tsx",
  "components/shelters/shelter-card.tsx",
  "app/not-found.tsx",
  "app/global-error.tsx",
];
const ALLOWED = new Set(["Petstore"]);
/** Per file: the staff's second row of the header stays English (staff pages are English in issue 36). */
const STAFF_ONLY: Record<string, string[]> = { "components/site-nav.tsx": ["new"] };

/** Literal words people would read: JSX text between tags, and read attributes given as plain strings. */
function literalEnglish(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  for (const m of code.matchAll(/>([^<>{}]*[A-Za-z]{2,}[^<>{}]*)</g)) {
    const text = m[1]!.trim();
    // Arrow functions' and generics' ">" are code, not markup: JSX text has no ";" "(" "=" at its ends.
    if (!text || /[;=()]|=>|\breturn\b|&&|\|\|/.test(text) || ALLOWED.has(text)) continue;
    found.push(text);
  }
  for (const m of code.matchAll(/\b(aria-label|alt|title|placeholder|label|legend|hint)="([^"]*[A-Za-z]{2,}[^"]*)"/g)) found.push(`${m[1]}="${m[2]}"`);
  return found;
}

describe("the translated adopter pages", () => {
  it("render no English string of their own", () => {
    const offenders = TRANSLATED.flatMap((file) =>
      literalEnglish(fs.readFileSync(path.resolve(file), "utf8"))
        .filter((text) => !STAFF_ONLY[file]?.includes(text))
        .map((text) => `${file}: ${text}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the check finds what it should", () => {
    expect(literalEnglish(`<p className="x">Loading animals…</p><a aria-label="Close">{t("x")}</a>`)).toEqual(["Loading animals…", 'aria-label="Close"']);
  });
});
