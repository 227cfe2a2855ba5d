import { chromium } from "@playwright/test";
const [url, out, width] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4] ?? 1280)];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width, height: 900 } });
await page.goto(url, { waitUntil: "networkidle" });
await page.screenshot({ path: out, fullPage: process.argv[5] === "full" });
await browser.close();
