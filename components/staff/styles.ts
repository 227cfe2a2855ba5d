// Class names shared by the staff forms, so every control looks and focuses
// alike. Colours are chosen for AA contrast on white and stone-50.

const focusRing = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700";

export const labelClass = "block text-sm font-semibold text-stone-800";

export const hintClass = "mt-1 text-sm text-stone-600";

export const inputClass = (invalid: boolean) =>
  `mt-1 block w-full min-w-0 rounded-md border bg-white px-3 py-2 text-base text-stone-900 shadow-sm ${focusRing} ${
    invalid ? "border-red-700" : "border-stone-400"
  }`;

export const primaryButtonClass = `inline-flex items-center justify-center rounded-md bg-emerald-700 px-4 py-2 text-base font-semibold text-white shadow-sm hover:bg-emerald-800 disabled:cursor-not-allowed disabled:bg-stone-500 ${focusRing}`;

export const secondaryButtonClass = `inline-flex items-center justify-center rounded-md border border-stone-400 bg-white px-3 py-1.5 text-sm font-semibold text-stone-800 hover:bg-stone-100 disabled:cursor-not-allowed disabled:text-stone-500 ${focusRing}`;
/** A secondary button that is the current one of a set (a tab): same size, filled. */
export const currentTabClass = `inline-flex items-center justify-center rounded-md border border-emerald-700 bg-emerald-700 px-3 py-1.5 text-sm font-semibold text-white ${focusRing}`;

export const dangerButtonClass = `inline-flex items-center justify-center rounded-md border border-red-700 bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-stone-500 ${focusRing}`;

export const linkClass = `font-semibold text-emerald-800 underline underline-offset-2 hover:text-emerald-900 ${focusRing} rounded-sm`;

export const panelClass = "rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6";
