"use client";

import { useId } from "react";
import { hintClass, inputClass, labelClass } from "@/components/staff/styles";
import type { Import } from "@/lib/imports/schemas";

// The generic import's value map (issue 42): the file's words of
// closed-vocabulary fields in ours, pasted or edited as JSON, and the dry
// run's list of the words no map covers yet, so a person completes the map
// once. The mapping step of components/staff/import-panel.tsx holds these.

export type Values = Record<string, Record<string, string>>;

/** The text as a value map, or what is wrong with it (empty text: no map). */
export function parseValues(text: string): { values?: Values; error?: string } {
  if (!text.trim()) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    const ok =
      parsed !== null &&
      typeof parsed === "object" &&
      !Array.isArray(parsed) &&
      Object.values(parsed).every(
        (words) => words !== null && typeof words === "object" && !Array.isArray(words) && Object.values(words).every((w) => typeof w === "string"),
      );
    return ok ? { values: parsed as Values } : { error: 'Write an object of fields, each an object of "their word": "our word".' };
  } catch {
    return { error: "This is not JSON yet." };
  }
}

export function ValuesEditor({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const id = useId();
  const { error } = parseValues(text);
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        Your words in ours (optional)
      </label>
      <textarea
        id={id}
        rows={6}
        spellCheck={false}
        className={`${inputClass(Boolean(error))} font-mono text-sm`}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-hint`}
        placeholder={'{ "intakeType": { "OWNER SURRENDER": "relinquishedByOwner" }, "sex": { "Spayed": "female" } }'}
      />
      <p id={`${id}-hint`} className={hintClass}>
        {error ??
          "For species, sex, size, coat length, status, age group, intake and outcome types, and yes/no fields: a word neither ours nor listed here refuses its row. The preview lists every such word."}
      </p>
    </div>
  );
}

/** The dry run's words that no map covers, per field, with how many rows have each. */
export function UnknownWords({ report }: { report: Pick<Import, "unknownWords" | "format"> }) {
  const fields = Object.entries(report.unknownWords ?? {});
  if (!fields.length) return null;
  return (
    <div>
      <h3 className="font-semibold">Words we could not read</h3>
      <p className="text-sm text-stone-700">
        {report.format === "generic"
          ? "Add them to \u201cYour words in ours\u201d and preview again: their rows are refused until then."
          : "Their rows are refused: we have no category or word for them."}
      </p>
      <dl className="text-sm">
        {fields.map(([field, words]) => (
          <div key={field} className="mt-1">
            <dt className="font-medium">{field}</dt>
            <dd className="break-words">{words.map((w) => `“${w.word}” (${w.count})`).join(", ")}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
