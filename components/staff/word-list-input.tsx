"use client";

import { useState } from "react";
import { useController, useFormContext } from "react-hook-form";
import { errorMessage } from "@/components/staff/answer-select";
import { FormField } from "@/components/staff/form-field";

// A short list of words (colours, tags) typed as one line, comma-separated:
// the easiest input on a phone's keyboard. The form holds the list; the
// text is kept as typed until the list it makes changes from elsewhere (the
// form refilled with a newer version of the animal).

const splitWords = (text: string) =>
  text
    .split(",")
    .map((w) => w.trim())
    .filter((w) => w.length > 0);

const joinWords = (words: unknown) => (Array.isArray(words) ? words.join(", ") : "");
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

export function WordListInput({ id, name, label, hint, max }: { id: string; name: string; label: string; hint: string; max: number }) {
  const { control, getFieldState, formState } = useFormContext();
  const {
    field: { ref, value, onBlur, onChange },
  } = useController({ name, control });
  const [text, setText] = useState(() => joinWords(value));
  // Refilled from elsewhere: show the new list.
  if (!same(splitWords(text), value) && joinWords(value) !== text) setText(joinWords(value));
  const count = splitWords(text).length;
  const message = errorMessage(getFieldState(name, formState).error);
  return (
    <FormField
      id={id}
      label={label}
      hint={
        <>
          {hint} {count} of {max}.
        </>
      }
      error={message ? { message } : undefined}
    >
      {(control) => (
        <input
          {...control}
          type="text"
          autoComplete="off"
          name={name}
          ref={ref}
          value={text}
          onBlur={onBlur}
          onChange={(event) => {
            setText(event.target.value);
            onChange(splitWords(event.target.value));
          }}
        />
      )}
    </FormField>
  );
}
