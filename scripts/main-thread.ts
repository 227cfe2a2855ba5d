/**
 * `npm run lighthouse -- --main-thread`: the main thread of a page load,
 * measured in Chromium through the DevTools protocol rather than simulated.
 *
 * Lighthouse's blocking time is a simulation that multiplies every task by
 * the CPU slowdown (about 9.6× on this host), so on a shared machine a page
 * moves by up to 20 points between runs and a 100 ms change in script time
 * hides in the noise. This loads each page many times (MAIN_THREAD_RUNS,
 * default 15), the pages taking turns, in a phone-sized window at a real 4×
 * CPU slowdown, and reports medians of what the browser itself counted:
 * script, task and layout time, the blocking time of its long tasks (the
 * part of each over 50 ms) and the largest paint. Pages are paths of this
 * build or whole URLs of another one (LIGHTHOUSE_PAGES), so a change and
 * the build before it are compared in one run (docs/decisions/020-spanish.md).
 */
import { chromium } from "@playwright/test";

const RUNS = Number(process.env.MAIN_THREAD_RUNS ?? 15);
const CPU_SLOWDOWN = 4;

interface Load {
  script: number;
  task: number;
  layout: number;
  blocking: number;
  lcp: number;
}

declare global {
  var __mainThread: { lcp: number; blocking: number } | undefined;
}

async function load(browser: import("@playwright/test").Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await page.addInitScript(() => {
      const seen = (globalThis.__mainThread = { lcp: 0, blocking: 0 });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) seen.lcp = entry.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) seen.blocking += Math.max(0, entry.duration - 50);
      }).observe({ type: "longtask", buffered: true });
    });
    await page.goto(url, { waitUntil: "load" });
    // Hydration and the first effects run after load.
    await page.waitForTimeout(1500);
    const metrics = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
    const seen = await page.evaluate(() => globalThis.__mainThread!);
    return {
      script: metrics.ScriptDuration! * 1000,
      task: metrics.TaskDuration! * 1000,
      layout: metrics.LayoutDuration! * 1000,
      blocking: seen.blocking,
      lcp: seen.lcp,
    };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Loads every URL RUNS times, interleaved, and prints the medians. */
export async function mainThread(urls: { label: string; url: string }[], executablePath: string | undefined): Promise<void> {
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  const loads = new Map<string, Load[]>(urls.map((u) => [u.label, []]));
  try {
    for (const { url } of urls) await load(browser, url); // warm-up, not counted
    for (let i = 0; i < RUNS; i++) {
      for (let j = 0; j < urls.length; j++) {
        const { label, url } = urls[(i + j) % urls.length]!;
        loads.get(label)!.push(await load(browser, url));
      }
    }
  } finally {
    await browser.close();
  }
  console.log(
    `\nMain thread of a page load (Chromium, 412×823 phone, CPU ${CPU_SLOWDOWN}× slower through the DevTools protocol), median of ${RUNS} interleaved loads per page, ms`,
  );
  console.table(
    urls.map(({ label }) => {
      const runs = loads.get(label)!;
      const m = (k: keyof Load) => Math.round(median(runs.map((r) => r[k])));
      return {
        page: label,
        script: m("script"),
        "all tasks": m("task"),
        layout: m("layout"),
        "long-task blocking": m("blocking"),
        LCP: m("lcp"),
        "script runs": runs.map((r) => Math.round(r.script)).join(" "),
      };
    }),
  );
}
