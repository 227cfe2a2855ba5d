// Class names shared by the adopters' pages, so every control looks and
// focuses alike. Colours keep AA contrast on white and stone-50.

export const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700";

export const buttonClass = `inline-flex items-center justify-center gap-2 rounded-md border border-stone-400 bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-100 ${focusRing}`;

export const disabledButtonClass =
  "inline-flex cursor-not-allowed items-center justify-center gap-2 rounded-md border border-stone-300 bg-stone-100 px-4 py-2 text-sm font-semibold text-stone-600";

export const primaryButtonClass = `inline-flex items-center justify-center gap-2 rounded-md bg-emerald-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-emerald-800 disabled:cursor-not-allowed disabled:bg-stone-500 ${focusRing}`;

export const textLinkClass = `rounded-sm font-semibold text-emerald-800 underline underline-offset-2 hover:text-emerald-900 ${focusRing}`;

export const selectClass = `mt-1 block w-full min-w-0 rounded-md border border-stone-400 bg-white px-3 py-2 text-base text-stone-900 shadow-sm ${focusRing}`;
