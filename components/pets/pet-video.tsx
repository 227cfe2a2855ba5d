"use client";

import { useEffect, useRef, useState } from "react";
import { focusRing } from "@/components/pets/styles";
import { parseVideoUrl } from "@/lib/pets/video";

// The animal's video, in the privacy-enhanced player (youtube-nocookie.com,
// or Vimeo's with dnt=1), loaded only when the visitor presses play: until
// then the page asks nothing of YouTube or Vimeo (no thumbnail either), and
// only the animal's page lets those two players in as frames (proxy.ts).

/** Every string of the player, in one place. */
const TEXT = {
  heading: "Video",
  play: (name: string) => `Play the video of ${name}`,
  provider: { youtube: "YouTube", vimeo: "Vimeo" },
  notice: (provider: string) => `Plays from ${provider} once you press play.`,
  title: (name: string) => `Video of ${name}`,
} as const;

export function PetVideo({ url, petName }: { url: string; petName: string }) {
  const [playing, setPlaying] = useState(false);
  const player = useRef<HTMLIFrameElement>(null);
  // The pressed button is gone: the keyboard goes on from the player that took its place.
  useEffect(() => {
    if (playing) player.current?.focus();
  }, [playing]);
  const video = parseVideoUrl(url);
  if (!video) return null;
  const provider = TEXT.provider[video.provider];
  return (
    <section aria-labelledby="video-heading" className="space-y-2">
      <h2 id="video-heading" className="text-xl font-semibold text-stone-900">
        {TEXT.heading}
      </h2>
      {playing ? (
        <iframe
          ref={player}
          src={`${video.embedUrl}${video.embedUrl.includes("?") ? "&" : "?"}autoplay=1`}
          title={TEXT.title(petName)}
          allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          className="aspect-video w-full rounded-2xl border border-stone-200 bg-stone-900"
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          aria-describedby="video-notice"
          className={`group relative flex aspect-video w-full items-center justify-center rounded-2xl bg-stone-800 text-white shadow-sm hover:bg-stone-700 ${focusRing}`}
        >
          <span className="flex flex-col items-center gap-3">
            <svg aria-hidden="true" viewBox="0 0 64 64" className="size-16 transition-transform group-hover:scale-110">
              <circle cx="32" cy="32" r="30" className="fill-white/20 stroke-white" strokeWidth="2" />
              <path d="M26 20 46 32 26 44z" className="fill-white" />
            </svg>
            <span className="px-4 text-center text-lg font-semibold">{TEXT.play(petName)}</span>
          </span>
        </button>
      )}
      <p id="video-notice" className="text-sm text-stone-600">
        {TEXT.notice(provider)}
      </p>
    </section>
  );
}
