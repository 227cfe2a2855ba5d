import { describe, expect, it } from "vitest";
import { printable } from "@/lib/terminal";

// The CLI's one sanitiser: what it prints of a file never runs in the terminal.

describe("printable", () => {
  it("shows escape sequences, C1 controls and bidirectional overrides as their escapes", () => {
    expect(printable("\u001b[2J\u001b]0;owned\u0007")).toBe("\\x1b[2J\\x1b]0;owned\\x07");
    expect(printable("red\u009b31m")).toBe("red\\x9b31m");
    expect(printable("cat\u202eexe.jpg")).toBe("cat\\u202eexe.jpg");
    expect(printable("a\rb\u007fc\u0000")).toBe("a\\x0db\\x7fc\\x00");
  });

  it("leaves text, accents, emoji, tabs and line breaks as they are", () => {
    const text = 'line 2 (Type): "Zoë 🐶" is not a species\tand\nmore';
    expect(printable(text)).toBe(text);
  });
});
