/**
 * `npm run bench:profile-summary -- <file.cpuprofile>...`: where a server's
 * busy time went, from the CPU profiles `BENCH_PROFILE=1 npm run bench`
 * writes to .data/profiles (one per process; the service's worker is the
 * largest). Self time is grouped by where the code lives (Node's internals,
 * Next, the app's bundle, pg, zod, garbage collection...) as shares of the
 * busy time (idle excluded), then the functions with the most self time.
 */
import "./require-node";
import fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, by its script's URL. */
export function groupOf(frame: Node["callFrame"]): string {
  const { url, functionName } = frame;
  if (functionName === "(idle)") return "idle";
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(program)") return "V8 (program)";
  if (url.startsWith("node:") || (!url && functionName)) return "Node internals and natives";
  if (/node_modules\/next\//.test(url)) return "Next";
  if (/node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(url)) return "pg";
  if (/node_modules\/zod\//.test(url)) return "zod";
  if (/node_modules\/react(-dom)?\//.test(url)) return "React";
  if (/\.next\/server\//.test(url)) return "the app's bundle (route handlers, lib/)";
  if (/\/lib\/server\/|\/scripts\/server/.test(url)) return "lib/server and scripts/server.ts";
  if (/node_modules\//.test(url)) return `other packages (${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)![1]})`;
  return "other";
}

function summarise(file: string, top = 15): void {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame;
    const group = groupOf(frame);
    if (group === "idle") continue;
    busy += micros;
    groups.set(group, (groups.get(group) ?? 0) + micros);
    const name = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*node_modules\//, "").replace(/^.*\.next\//, ".next/")}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  const pct = (micros: number) => `${((100 * micros) / busy).toFixed(1)}%`;
  console.log(`\n${file}: ${(busy / 1e6).toFixed(1)} s busy`);
  console.table([...groups].sort((a, b) => b[1] - a[1]).map(([group, micros]) => ({ group, "share of busy time": pct(micros) })));
  console.table(
    [...functions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, micros]) => ({ "self time": pct(micros), function: fn })),
  );
}

if (process.argv[1]?.endsWith("profile-summary.ts")) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error("usage: npm run bench:profile-summary -- .data/profiles/<file>.cpuprofile ...");
    process.exit(2);
  }
  for (const file of files) summarise(file);
}
