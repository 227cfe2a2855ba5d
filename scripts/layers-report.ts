// Prints the layering's counts (docs/architecture.md): folder cycles among
// lib/'s top-level units, circles of files, upward imports by rule, and the
// largest source files. `npm run lint:layers` enforces; this measures.
//   npm run layers:report            (the working tree)
//   npm run layers:report -- --list  (and every violation)
import "./require-node";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

interface Module {
  source: string;
  dependencies: { resolved: string; coreModule?: boolean; couldNotResolve?: boolean }[];
}
interface Violation {
  type: string;
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}
interface Result {
  modules: Module[];
  summary: { violations: Violation[] };
}

const SCOPE = ["app", "lib", "components", "scripts", "pages", "i18n", "prisma", "tests", "e2e", "proxy.ts"];
const list = process.argv.includes("--list");

const json = execFileSync(process.execPath, ["node_modules/.bin/depcruise", "--output-type", "json", ...SCOPE], {
  maxBuffer: 256 * 1024 * 1024,
  encoding: "utf8",
});
const result = JSON.parse(json) as Result;
const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const generated = (file: string) => file.startsWith("lib/generated/");

/** Strongly connected components (Tarjan) of a graph given as adjacency sets. */
function components(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

const edges = (map: Map<string, Set<string>>, from: string, to: string) => {
  if (!map.has(from)) map.set(from, new Set());
  if (!map.has(to)) map.set(to, new Set());
  map.get(from)!.add(to);
};

// Files: every module outside generated code.
const files = new Map<string, Set<string>>();
// lib/'s top-level units (a folder or a file), tests beside the code left out.
const unitOf = (file: string) => file.match(/^lib\/([^/]+?)(\.tsx?)?(\/|$)/)?.[1];
const units = new Map<string, Set<string>>();
let sourceFiles = 0;
for (const mod of result.modules) {
  if (generated(mod.source) || mod.source.startsWith("node_modules/")) continue;
  if (!mod.source.startsWith("tests/") && !mod.source.startsWith("e2e/") && !isTest(mod.source)) sourceFiles++;
  for (const dependency of mod.dependencies) {
    if (dependency.coreModule || dependency.couldNotResolve || dependency.resolved.startsWith("node_modules/") || generated(dependency.resolved)) continue;
    edges(files, mod.source, dependency.resolved);
    const from = unitOf(mod.source);
    const to = unitOf(dependency.resolved);
    if (from && to && from !== to && from !== "generated" && !isTest(mod.source)) edges(units, `lib/${from}`, `lib/${to}`);
  }
}

const circles = components(files);
const knots = components(units);
const byRule = new Map<string, Violation[]>();
// The layer rules are named upward:<unit>; they count together.
const ruleOf = (violation: Violation) => (violation.rule.name.startsWith("upward") ? "upward" : violation.rule.name);
for (const violation of result.summary.violations) byRule.set(ruleOf(violation), [...(byRule.get(ruleOf(violation)) ?? []), violation]);

console.log(`source files (outside tests and generated code): ${sourceFiles}`);
console.log(`lib/ folder cycles (strongly connected groups of lib/'s top-level units): ${knots.length}`);
for (const knot of knots) console.log(`  ${knot.length} units: ${knot.map((u) => u.replace(/^lib\//, "")).join(", ")}`);
console.log(`circles of files (strongly connected groups, generated code left out): ${circles.length}`);
for (const circle of circles) console.log(`  ${circle.length} files: ${circle.join(", ")}`);
console.log(`upward imports (rules "upward:*": an import of a unit listed later in scripts/layers.cjs): ${byRule.get("upward")?.length ?? 0}`);
console.log(`units outside the layers (rule "not-in-layers"): ${byRule.get("not-in-layers")?.length ?? 0}`);
if (list) for (const violation of byRule.get("upward") ?? []) console.log(`  ${violation.from} -> ${violation.to}`);

const lines = (file: string) => readFileSync(file, "utf8").split("\n").length - 1;
const largest = result.modules
  .map((m) => m.source)
  .filter(
    (file) =>
      /^(app|lib|components|scripts|pages)\//.test(file) && !generated(file) && !isTest(file) && file !== "lib/site/openapi-types.ts" && /\.tsx?$/.test(file),
  )
  .map((file) => ({ file, lines: lines(file) }))
  .sort((a, b) => b.lines - a.lines)
  .slice(0, 10);
console.log("largest source files (lines; generated lib/site/openapi-types.ts left out):");
for (const { file, lines: count } of largest) console.log(`  ${String(count).padStart(5)} ${file}`);
