// The adoption fee: an amount in the currency's minor unit (cents for US
// dollars; whole yen for yen), its ISO 4217 currency, and whether it is
// waived. No zod here: the schema, the animal's page and the staff form all
// use these, and the page ships them in its first JavaScript.

export interface AdoptionFee {
  amountCents: number;
  currency: string;
  waived: boolean;
}

export const DEFAULT_CURRENCY = "USD";

/** The fee as a row keeps it (three columns; cents null: no fee known), as the API shows it. */
export function adoptionFeeOf(row: {
  adoptionFeeCents: number | null;
  adoptionFeeCurrency: string | null;
  adoptionFeeWaived: boolean | null;
}): AdoptionFee | null {
  // currency is CHAR(3): trimmed of its padding.
  return row.adoptionFeeCents === null
    ? null
    : { amountCents: row.adoptionFeeCents, currency: row.adoptionFeeCurrency!.trim(), waived: row.adoptionFeeWaived ?? false };
}

/** The largest fee accepted, in minor units: $100,000. */
export const FEE_MAX_CENTS = 10_000_000;

/**
 * ISO 4217's codes in use (the list ICU, and so Intl, formats: checked by
 * lib/pets/adoption-fee.test.ts). Fixed here, not read from Intl at run
 * time, so the browser's form and the server refuse exactly the same codes.
 */
export const CURRENCIES: readonly string[] = (
  "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP " +
  "CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY " +
  "KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR " +
  "NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND " +
  "TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XDR XOF XPF XSU YER ZAR ZMW ZWG ZWL"
).split(" ");

/** The currencies the staff form offers first (the others can still be typed through the API). */
export const COMMON_CURRENCIES = ["USD", "CAD", "MXN", "EUR", "GBP", "AUD", "NZD"] as const;

// A fixed locale, so the server's render and the browser's print the same words.
const LOCALE = "en-US";

/** How many decimals the currency's minor unit has: 2 for USD, 0 for JPY, 3 for KWD. */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat(LOCALE, { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * "$150", "$150.50", "CA$75", "€90": no decimals when there are no cents.
 * In the page's language: Spanish pages use es-US ("150 US$" would be Spain's).
 */
export function formatAmount(amountCents: number, currency: string, locale = "en"): string {
  const digits = minorDigits(currency);
  const amount = amountCents / 10 ** digits;
  const whole = amountCents % 10 ** digits === 0;
  try {
    return new Intl.NumberFormat(locale === "en" ? LOCALE : `${locale}-US`, {
      style: "currency",
      currency,
      minimumFractionDigits: whole ? 0 : digits,
      maximumFractionDigits: digits,
    }).format(amount);
  } catch {
    return `${amount.toFixed(whole ? 0 : digits)} ${currency}`;
  }
}

/**
 * An amount as a person types it ("150", "150.5", "1,500.00", "$150") in
 * the currency's minor unit; null when it is not an amount (or has more
 * decimals than the currency has).
 */
export function amountFromText(text: string, currency: string): number | null {
  const cleaned = text
    .trim()
    .replace(/^(?:[A-Z]{0,2}\$|€|£|¥)/, "")
    .replace(/\s/g, "");
  const m = /^([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]*))?$/.exec(cleaned) ?? /^()\.([0-9]+)$/.exec(cleaned);
  if (!m) return null;
  const digits = minorDigits(currency);
  const fraction = m[2] ?? "";
  if (fraction.length > digits) return null;
  const whole = Number((m[1] || "0").replace(/,/g, ""));
  const cents = whole * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return Number.isSafeInteger(cents) ? cents : null;
}

/** The amount as the staff form shows it for editing: "150", "150.50". */
export function amountText(amountCents: number, currency: string): string {
  const digits = minorDigits(currency);
  const whole = Math.floor(amountCents / 10 ** digits);
  const fraction = amountCents % 10 ** digits;
  return fraction === 0 ? String(whole) : `${whole}.${String(fraction).padStart(digits, "0")}`;
}
