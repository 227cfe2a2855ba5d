import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n/locales";
import { wholeNumber } from "@/lib/i18n/numbers";
import { KM_PER_MILE } from "@/lib/core/units";
import type { Address } from "@/lib/organizations/schemas";

// How a shelter's place and contact read on the adopters' pages. Distances
// travel in kilometres (distanceKm) and are shown in miles: the site's
// adopters are in the US.

/**
 * "12 mi away" / "a 12 mi"; "Under 1 mi away" rather than "0 mi away". `t`
 * is the "Shelters" messages' translator in the page's language.
 */
export function milesAway(t: (key: "milesAway" | "underAMile", values?: Record<string, string>) => string, distanceKm: number, locale: string): string {
  const miles = distanceKm / KM_PER_MILE;
  return miles < 1 ? t("underAMile") : t("milesAway", { miles: wholeNumber(Math.round(miles), isLocale(locale) ? locale : DEFAULT_LOCALE) });
}

/** "Chicago, IL"; the country's name too outside the US. */
export function placeLine(address: Address): string {
  const country = address.country === "US" ? undefined : countryName(address.country);
  return [address.city, address.region, country].filter(Boolean).join(", ");
}

/** The postal lines: street, then "Chicago, IL 60606", then the country outside the US. */
export function addressLines(address: Address): string[] {
  const town = [address.city, [address.region, address.postcode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [address.street, town, address.country === "US" ? null : countryName(address.country)].filter((line): line is string => !!line);
}

const COUNTRY_NAMES = new Intl.DisplayNames(["en"], { type: "region" });

function countryName(code: string): string {
  try {
    return COUNTRY_NAMES.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A tel: link's target: the digits, and a leading + (spaces and punctuation are for reading). */
export function telHref(phone: string): string {
  const plus = phone.trim().startsWith("+") ? "+" : "";
  return `tel:${plus}${phone.replace(/[^0-9]/g, "")}`;
}

/** A website as people say it: "lakeshore.example/adopt", without the scheme or "www.". */
export function websiteLabel(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname === "/" ? "" : parsed.pathname.replace(/\/$/, "");
    return `${parsed.hostname.replace(/^www\./, "")}${path}`;
  } catch {
    return url;
  }
}
