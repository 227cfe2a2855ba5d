"use client";

import { useState } from "react";
import { useController, useFormContext } from "react-hook-form";
import { errorMessage } from "@/components/staff/answer-select";
import { FieldError } from "@/components/staff/field-error";
import { hintClass, inputClass, labelClass } from "@/components/staff/styles";
import { amountFromText, amountText, COMMON_CURRENCIES, DEFAULT_CURRENCY, type AdoptionFee } from "@/lib/pets/adoption-fee";

// The adoption fee as staff think of it: an amount in dollars and cents
// (or the currency's own units), a currency, and a Waived box. The form
// holds the API's { amountCents, currency, waived }, or null when nothing
// is filled in (not known).

const TEXT = {
  legend: "Adoption fee",
  hint: "The amount, e.g. 150 or 150.50. Leave it empty when not known.",
  amount: "Amount",
  currency: "Currency",
  waived: "Waived (the animal goes home free)",
  notAnAmount: "must be an amount such as 150 or 150.50",
} as const;

interface FeeText {
  amount: string;
  currency: string;
  waived: boolean;
}

type FeeValue = Partial<AdoptionFee> | null | undefined;

const textOf = (fee: FeeValue): FeeText => ({
  amount: fee?.amountCents !== undefined ? amountText(fee.amountCents, fee.currency ?? DEFAULT_CURRENCY) : "",
  currency: fee?.currency ?? DEFAULT_CURRENCY,
  waived: fee?.waived ?? false,
});

/**
 * What the boxes say, as the API's fee: nothing filled in is unknown (null);
 * waived without an amount is a fee of 0. Text that is not an amount stays
 * text, for the schema to refuse.
 */
function feeOf(text: FeeText): { amountCents: number | string; currency: string; waived: boolean } | null {
  if (text.amount.trim() === "" && !text.waived) return null;
  const amountCents = text.amount.trim() === "" ? 0 : (amountFromText(text.amount, text.currency) ?? text.amount);
  return { amountCents, currency: text.currency, waived: text.waived };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function FeeFields({ idPrefix }: { idPrefix: string }) {
  const { control, getFieldState, formState } = useFormContext();
  const {
    field: { name, ref, value, onBlur, onChange },
  } = useController({ name: "adoptionFee", control });
  const [text, setText] = useState<FeeText>(() => textOf(value as FeeValue));
  // Refilled from elsewhere (a newer version of the animal): show it.
  if (!same(feeOf(text), value) && !same(textOf(value as FeeValue), text)) setText(textOf(value as FeeValue));

  const change = (next: Partial<FeeText>) => {
    const updated = { ...text, ...next };
    setText(updated);
    onChange(feeOf(updated));
  };
  const id = (part: string) => `${idPrefix}-fee-${part}`;
  const amountError = getFieldState("adoptionFee.amountCents", formState).error;
  // A client-side type error means the text was not an amount: say it in the form's words.
  const amountMessage = amountError?.type === "invalid_type" ? TEXT.notAnAmount : amountError?.message;
  const currencyMessage = errorMessage(getFieldState("adoptionFee.currency", formState).error);
  const otherMessage = amountMessage || currencyMessage ? undefined : errorMessage(getFieldState("adoptionFee", formState).error);
  const currencies = COMMON_CURRENCIES.includes(text.currency as (typeof COMMON_CURRENCIES)[number])
    ? COMMON_CURRENCIES
    : [text.currency, ...COMMON_CURRENCIES];

  return (
    <fieldset aria-describedby={`${id("hint")} ${id("error")}`}>
      <legend className={labelClass}>{TEXT.legend}</legend>
      <p id={id("hint")} className={hintClass}>
        {TEXT.hint}
      </p>
      <div className="mt-1 flex flex-wrap items-end gap-3">
        <div className="w-28">
          <label htmlFor={id("currency")} className="block text-sm text-stone-800">
            {TEXT.currency}
          </label>
          <select
            id={id("currency")}
            className={inputClass(!!currencyMessage)}
            aria-invalid={currencyMessage ? true : undefined}
            value={text.currency}
            onChange={(e) => change({ currency: e.target.value })}
          >
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0 flex-1 basis-32">
          <label htmlFor={id("amount")} className="block text-sm text-stone-800">
            {TEXT.amount}
          </label>
          <input
            id={id("amount")}
            name={name}
            ref={ref}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className={inputClass(!!amountMessage)}
            aria-invalid={amountMessage ? true : undefined}
            aria-describedby={id("error")}
            value={text.amount}
            onBlur={onBlur}
            onChange={(e) => change({ amount: e.target.value })}
          />
        </div>
        <label className="inline-flex min-h-11 items-center gap-2 text-stone-800">
          <input type="checkbox" className="size-5 accent-emerald-700" checked={text.waived} onChange={(e) => change({ waived: e.target.checked })} />
          {TEXT.waived}
        </label>
      </div>
      <FieldError id={id("error")} label={TEXT.legend} message={amountMessage ?? currencyMessage ?? otherMessage} />
    </fieldset>
  );
}
