// What the CLI prints of data it did not write itself (a file's cells and
// names, an import's report, an error's message) goes through printable():
// a terminal runs the escape sequences a value may hold (ESC [ … to move the
// cursor, recolour or clear the screen, OSC to set the title or a link; C1
// controls alike), and bidirectional overrides reorder what follows them.

/** C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional overrides and isolates. */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The text with every control character shown as its escape (`\x1b`, `\u202e`), so it prints as it is and runs nothing. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
