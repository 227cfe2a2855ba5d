/** The small pictures before a shelter's address, phone, email and website (decorative: the text says it). */
export function ContactIcon({ kind }: { kind: "place" | "phone" | "email" | "website" | "distance" }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 fill-emerald-800">
      {kind === "place" ? (
        <path d="M10 1.5a6 6 0 0 0-6 6c0 4.4 6 11 6 11s6-6.6 6-11a6 6 0 0 0-6-6Zm0 8.2a2.2 2.2 0 1 1 0-4.4 2.2 2.2 0 0 1 0 4.4Z" />
      ) : kind === "phone" ? (
        <path d="M5.3 2.2 7.6 2c.4 0 .8.2.9.6l1 3c.1.4 0 .8-.3 1L7.7 7.9a11 11 0 0 0 4.4 4.4l1.3-1.5c.3-.3.7-.4 1-.3l3 1c.4.1.6.5.6.9l-.2 2.3c0 .6-.5 1.1-1.1 1.1C9.6 15.8 4.2 10.4 4.2 3.3c0-.6.5-1.1 1.1-1.1Z" />
      ) : kind === "email" ? (
        <path d="M2.5 4h15c.6 0 1 .4 1 1v10c0 .6-.4 1-1 1h-15a1 1 0 0 1-1-1V5c0-.6.4-1 1-1Zm.5 2.2V14h14V6.2l-7 4.6-7-4.6ZM4.4 5.5 10 9.2l5.6-3.7H4.4Z" />
      ) : kind === "website" ? (
        <path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm5.9 7.7h-2.6a13 13 0 0 0-1.1-5.4 7 7 0 0 1 3.7 5.4ZM10 3.2c.8 1 1.6 3.2 1.8 6H8.2c.2-2.8 1-5 1.8-6ZM7.8 3.8a13 13 0 0 0-1.1 5.4H4.1a7 7 0 0 1 3.7-5.4Zm-3.7 7h2.6c.1 2 .5 3.9 1.1 5.4a7 7 0 0 1-3.7-5.4Zm5.9 6c-.8-1-1.6-3.2-1.8-6h3.6c-.2 2.8-1 5-1.8 6Zm2.2-.6c.6-1.5 1-3.4 1.1-5.4h2.6a7 7 0 0 1-3.7 5.4Z" />
      ) : (
        <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm0 2.2 1.6 3.6-1.6-.7-1.6.7L10 4.2Zm-3.4 9.5L10 6.5l3.4 7.2L10 12l-3.4 1.7Z" />
      )}
    </svg>
  );
}
