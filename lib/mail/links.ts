import { env } from "@/lib/env";

// Where the links in emails point. Never to anything a request says: the
// Host header (or X-Forwarded-Host) is the client's to choose, and a link
// built on it would make the shelter's own mail server send a victim a link
// to another site. So only configuration counts: PUBLIC_BASE_URL, which
// production requires when mail is set up (lib/env.ts refuses to start
// without it). Elsewhere (development, tests) it falls back to this server
// as the launcher announces it, http://localhost:PORT.

/** The origin links in emails are built on ("https://api.shelter.example"), or null when none may be (production without PUBLIC_BASE_URL, which has no mail either). */
export function mailLinkOrigin(): string | null {
  const { PUBLIC_BASE_URL, NODE_ENV, PORT } = env();
  if (PUBLIC_BASE_URL) return new URL(PUBLIC_BASE_URL).origin;
  return NODE_ENV === "production" ? null : `http://localhost:${PORT}`;
}
