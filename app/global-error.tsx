"use client";

// The last resort when the root layout itself fails to render. Next's own
// fallback ships a styled error screen in every page's JavaScript; this one
// is plain and small, in the site's words.
export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "4rem auto", maxWidth: "32rem", padding: "0 1rem", color: "#1c1917" }}>
        <h1>Something went wrong</h1>
        <p>The page could not be shown. Please try again in a moment.</p>
        <p>
          <button type="button" onClick={() => reset()}>
            Try again
          </button>{" "}
          {/* A full page load on purpose: the app's own navigation is what failed. */}
          or <a href="/">go to the list of animals</a>.
        </p>
      </body>
    </html>
  );
}
