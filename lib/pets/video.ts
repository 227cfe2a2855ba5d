// An animal's video: only a YouTube or Vimeo address, because only those two
// have a privacy-enhanced player (youtube-nocookie.com; Vimeo's dnt=1) that
// the animal's page can embed, loaded only when pressed. No zod here: the
// schema (lib/pets/schemas/fields.ts) and the page (components/pets/pet-video.tsx)
// both read addresses through parseVideoUrl.

export const VIDEO_URL_MAX = 2048;

export type VideoProvider = "youtube" | "vimeo";

export interface Video {
  provider: VideoProvider;
  /** YouTube's 11-character id, or Vimeo's number. */
  id: string;
  /** The privacy-enhanced player's address. */
  embedUrl: string;
}

/** Where the players are served from: the page's CSP allows frames from these alone (proxy.ts). */
export const VIDEO_PLAYER_ORIGINS = ["https://www.youtube-nocookie.com", "https://player.vimeo.com"] as const;

export const VIDEO_URL_RULE =
  "must be an https address of a YouTube or Vimeo video: youtube.com/watch?v=…, youtu.be/…, youtube.com/shorts/…, youtube.com/embed/…, vimeo.com/123456789 or player.vimeo.com/video/123456789";

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com"]);
const VIMEO_HOSTS = new Set(["vimeo.com", "www.vimeo.com"]);

const youtube = (id: string | undefined | null): Video | null =>
  id && YOUTUBE_ID.test(id) ? { provider: "youtube", id, embedUrl: `https://www.youtube-nocookie.com/embed/${id}` } : null;

/** An unlisted Vimeo video's hash travels with it (the player needs `h=`). */
const vimeo = (id: string | undefined, hash?: string | null): Video | null =>
  id && /^[0-9]{1,12}$/.test(id) && (!hash || /^[0-9a-f]{1,20}$/.test(hash))
    ? { provider: "vimeo", id, embedUrl: `https://player.vimeo.com/video/${id}?dnt=1${hash ? `&h=${hash}` : ""}` }
    : null;

/** The video an address names, or null when it is not one of the accepted YouTube or Vimeo forms. */
export function parseVideoUrl(text: string): Video | null {
  if (text.length > VIDEO_URL_MAX) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password || url.port) return null;
  const host = url.hostname;
  const path = url.pathname.replace(/\/$/, "");
  if (YOUTUBE_HOSTS.has(host)) {
    if (path === "/watch") return youtube(url.searchParams.get("v"));
    const m = /^\/(?:shorts|embed)\/([^/]+)$/.exec(path);
    return m ? youtube(m[1]) : null;
  }
  if (host === "youtu.be") return youtube(/^\/([^/]+)$/.exec(path)?.[1]);
  if (VIMEO_HOSTS.has(host)) {
    const m = /^\/([0-9]+)(?:\/([0-9a-f]+))?$/.exec(path);
    return m ? vimeo(m[1], m[2]) : null;
  }
  if (host === "player.vimeo.com") {
    const m = /^\/video\/([0-9]+)$/.exec(path);
    return m ? vimeo(m[1], url.searchParams.get("h")) : null;
  }
  return null;
}
