import { COUNTRY_CODES } from "@/lib/organizations/schemas";

export interface CountryChoice {
  code: string;
  name: string;
}

/**
 * The country <select>'s choices: the United States first (the site's
 * adopters are there), then every other country by its English name. Made on
 * the server and handed to the forms: browsers and Node name some countries
 * differently ("Hong Kong" / "Hong Kong SAR China"), and the page the
 * server drew must be the page the browser hydrates.
 */
export function countryChoices(): CountryChoice[] {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  const name = (code: string) => names.of(code) ?? code;
  return [
    { code: "US", name: name("US") },
    ...COUNTRY_CODES.filter((code) => code !== "US")
      .map((code) => ({ code, name: name(code) }))
      .sort((a, b) => a.name.localeCompare(b.name, "en")),
  ];
}
