/**
 * A message about the whole form (the server refused it, the network is
 * down...). role="alert" so that it is announced as soon as it appears.
 */
export function FormAlert({ children, tone = "error" }: { children: React.ReactNode; tone?: "error" | "info" }) {
  const colours = tone === "error" ? "border-red-300 bg-red-50 text-red-900" : "border-sky-300 bg-sky-50 text-sky-950";
  return (
    <div role="alert" className={`rounded-md border px-4 py-3 text-sm ${colours}`}>
      {children}
    </div>
  );
}
