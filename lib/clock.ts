// Time as the API sees it. Production reads the system clock; tests replace
// it to cross a window edge or a sunset date without sleeping.

let current: () => Date = () => new Date();

export function now(): Date {
  return current();
}

/** Test hook: pass a function (or a fixed date); call with no argument to restore the real clock. */
export function setClock(clock?: Date | (() => Date)): void {
  if (clock === undefined) current = () => new Date();
  else if (clock instanceof Date) current = () => new Date(clock.getTime());
  else current = clock;
}
