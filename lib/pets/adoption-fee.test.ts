import { describe, expect, it } from "vitest";
import { amountFromText, amountText, CURRENCIES, formatAmount, minorDigits } from "@/lib/pets/adoption-fee";

describe("the adoption fee's words and amounts", () => {
  it("knows every currency it accepts well enough to print it", () => {
    const known = new Set(Intl.supportedValuesOf("currency"));
    expect(CURRENCIES.filter((c) => !known.has(c))).toEqual([]);
    expect(new Set(CURRENCIES).size).toBe(CURRENCIES.length);
  });

  it.each([
    [15000, "USD", "$150"],
    [15050, "USD", "$150.50"],
    [0, "USD", "$0"],
    [7500, "CAD", "CA$75"],
    [9000, "EUR", "€90"],
    [5000, "JPY", "¥5,000"],
  ])("%i %s is %s", (cents, currency, words) => {
    expect(formatAmount(cents, currency)).toBe(words);
  });

  it("has the minor units of each currency", () => {
    expect([minorDigits("USD"), minorDigits("JPY"), minorDigits("KWD")]).toEqual([2, 0, 3]);
  });

  it.each([
    ["150", "USD", 15000],
    ["150.5", "USD", 15050],
    ["150.50", "USD", 15050],
    [" $1,500.00 ", "USD", 150000],
    [".75", "USD", 75],
    ["0", "USD", 0],
    ["5000", "JPY", 5000],
    ["150.505", "USD", null],
    ["5000.5", "JPY", null],
    ["1,50", "USD", null],
    ["abc", "USD", null],
    ["", "USD", null],
    ["-5", "USD", null],
  ])("reads %j in %s as %s", (text, currency, cents) => {
    expect(amountFromText(text, currency)).toBe(cents);
  });

  it("writes amounts back as they were typed, without a needless .00", () => {
    expect([amountText(15000, "USD"), amountText(15050, "USD"), amountText(5, "USD"), amountText(5000, "JPY")]).toEqual(["150", "150.50", "0.05", "5000"]);
  });
});
