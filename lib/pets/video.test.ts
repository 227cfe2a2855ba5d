import { describe, expect, it } from "vitest";
import { parseVideoUrl } from "@/lib/pets/video";

describe("parseVideoUrl", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42s", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://m.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ?si=abc", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://www.youtube.com/shorts/dQw4w9WgXcQ", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ/", "youtube", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://vimeo.com/76979871", "vimeo", "https://player.vimeo.com/video/76979871?dnt=1"],
    ["https://www.vimeo.com/76979871/8a3c9e5d1f", "vimeo", "https://player.vimeo.com/video/76979871?dnt=1&h=8a3c9e5d1f"],
    ["https://player.vimeo.com/video/76979871?h=8a3c9e5d1f&badge=0", "vimeo", "https://player.vimeo.com/video/76979871?dnt=1&h=8a3c9e5d1f"],
  ])("%s plays in the %s privacy-enhanced player", (url, provider, embedUrl) => {
    expect(parseVideoUrl(url)).toMatchObject({ provider, embedUrl });
  });

  it.each([
    "http://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.com/watch?v=short",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ%22%3E",
    "https://www.youtube.com/playlist?list=PL123",
    "https://www.youtube.com/@shelter",
    "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
    "https://evil.example/youtu.be/dQw4w9WgXcQ",
    "https://user@youtube.com/watch?v=dQw4w9WgXcQ",
    "https://youtube.com:8443/watch?v=dQw4w9WgXcQ",
    "https://vimeo.com/channels/staffpicks/76979871",
    "https://vimeo.com/76979871/NOT-HEX",
    "https://player.vimeo.com/video/76979871?h=<script>",
    "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
    "javascript:alert(1)",
    "not a url",
    `https://youtu.be/${"x".repeat(2100)}`,
  ])("refuses %s", (url) => {
    expect(parseVideoUrl(url)).toBeNull();
  });
});
