// The national Basic Data Matrix's intake and outcome categories (issue 42,
// decision 023) as a file's words are matched against them: the categories
// themselves are lib/stays' (lib/stays/schemas.ts, the database's enums), listed once.

/** One of ours, whatever its case: "STRAY" is stray, "Transferred In" is not (map it). */
export function ourWord<T extends string>(words: readonly T[], cell: string): T | undefined {
  const key = cell.trim().toLowerCase();
  return words.find((w) => w.toLowerCase() === key);
}
