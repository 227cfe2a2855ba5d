import zlib from "node:zlib";
import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const url of process.argv.slice(2)) {
  const page = await browser.newPage();
  const sizes = new Map<string, number>();
  const pending: Promise<void>[] = [];
  page.on("response", (r) => { if (r.request().resourceType() === "script") pending.push(r.body().then((b) => void sizes.set(r.url(), zlib.gzipSync(b, { level: 9 }).length)).catch(() => undefined)); });
  await page.goto(url, { waitUntil: "networkidle" });
  await Promise.all(pending);
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  console.log(url, (total / 1024).toFixed(1), "kB");
  for (const [u, n] of [...sizes].sort((a, b) => b[1] - a[1])) console.log("  ", (n / 1024).toFixed(1), new URL(u).pathname);
  await page.close();
}
await browser.close();
