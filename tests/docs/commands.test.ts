import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";
import { program } from "@/scripts/cli";
import { ROOT } from "@/scripts/database";

// Every command the README and docs/ show still works: each shell example is
// read from the documents and held to what it names. An npm script must exist;
// a CLI command must exist with every option the example passes; a curl call
// must name a method and a path the API answers (the OpenAPI document's, or
// the few routes outside /v1). A renamed script, command, option or route
// fails here instead of in a newcomer's terminal. (The calls themselves run
// against a server in e2e: the partners' snippets, the launcher, the CLI.)

const DOCUMENTS = [
  "README.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The commands of a document's sh/bash blocks, continuation lines joined, comments dropped. */
function commandsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const blocks = [...text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, " ")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#")),
  );
}

const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const NPM_BUILTINS = new Set(["install", "ci", "start", "test", "exec", "view", "i"]);

/** The words after `npm run [-s] cli --`, up to the end of the command (a pipe, a redirect, a closing paren). */
function cliWords(command: string): string[][] {
  return [...command.matchAll(/npm run (?:-s )?cli -- ([^|;&)>]*)/g)].map((m) => m[1]!.trim().split(/\s+/));
}

function findCommand(words: string[]): { command: Command; rest: string[] } | string {
  let command: Command = program;
  let i = 0;
  while (i < words.length && !words[i]!.startsWith("-")) {
    const sub = command.commands.find((c) => c.name() === words[i] || c.aliases().includes(words[i]!));
    if (!sub) break;
    command = sub;
    i++;
  }
  if (command === program) return `no CLI command "${words[0]}"`;
  if (command.commands.length && words[i] !== undefined && !words[i]!.startsWith("-")) return `no CLI command "${words.slice(0, i + 1).join(" ")}"`;
  return { command, rest: words.slice(i) };
}

const PATHS = Object.entries((openApiDocument("http://localhost:3000") as unknown as { paths: Record<string, Record<string, unknown>> }).paths).map(
  ([template, ops]) => ({
    pattern: new RegExp(`^/v1${template.replace(/\{[^}]+\}/g, "[^/]+").replace(/\./g, "\\.")}$`),
    methods: Object.keys(ops).map((m) => m.toUpperCase()),
  }),
);
/** Routes outside /v1 the documents call. */
const OUTSIDE_V1 = [/^\/healthz$/, /^\/readyz$/, /^\/metrics$/, /^\/photos\/.+/, /^\/docs$/, /^\/$/, /^\/es\/?$/, /^\/staff(\/.*)?$/];

function curlProblem(command: string): string | undefined {
  // The call's own address: $BASE/…, or the first quoted URL (a body's URLs come after it).
  const url = /\$BASE(\/[^"?\s]*)/.exec(command) ?? /"https?:\/\/[^/"]+(\/[^"?]*)(?:\?[^"]*)?"/.exec(command);
  if (!url) return undefined;
  const [, rawPath] = url;
  const route = command.includes("$BASE") && !rawPath!.startsWith("/v1") ? `/v1${rawPath}` : rawPath!;
  const method = /-X\s+([A-Z]+)/.exec(command)?.[1] ?? (/\s(-d|--data|-F)\s/.test(command) ? "POST" : "GET");
  if (OUTSIDE_V1.some((p) => p.test(route))) return undefined;
  const match = PATHS.find((p) => p.pattern.test(route));
  if (!match) return `no route ${route}`;
  if (!match.methods.includes(method)) return `${route} answers ${match.methods.join(", ")}, not ${method}`;
  return undefined;
}

function problems(command: string): string[] {
  const found: string[] = [];
  for (const m of command.matchAll(/npm run (?:-s )?([\w:-]+)/g)) if (!scripts[m[1]!]) found.push(`no npm script "${m[1]}"`);
  for (const m of command.matchAll(/(?:^|[\s(])npm (?!run\b)([\w-]+)/g)) if (!NPM_BUILTINS.has(m[1]!)) found.push(`npm ${m[1]} is not an npm command we use`);
  for (const words of cliWords(command)) {
    const resolved = findCommand(words);
    if (typeof resolved === "string") {
      found.push(resolved);
      continue;
    }
    const known = new Set(resolved.command.options.flatMap((o) => [o.long, o.short].filter(Boolean) as string[]).concat(["--help", "-h"]));
    for (const word of resolved.rest) {
      const flag = /^(--?[\w-]+)/.exec(word)?.[1];
      if (flag && !known.has(flag)) found.push(`"${resolved.command.name()}" has no option ${flag}`);
    }
  }
  if (/\bcurl\b/.test(command)) {
    const problem = curlProblem(command);
    if (problem) found.push(problem);
  }
  return found;
}

describe("the documents' shell examples", () => {
  it("are there to check (the README's tour among them)", () => {
    expect(commandsOf("README.md").some((c) => c.includes("keys create"))).toBe(true);
    expect(DOCUMENTS.flatMap(commandsOf).length).toBeGreaterThan(30);
  });
  for (const file of DOCUMENTS) {
    const commands = commandsOf(file);
    if (!commands.length) continue;
    it(`${file}: every npm script, CLI command and option, and API route it shows exists`, () => {
      const found = commands.flatMap((command) => problems(command).map((p) => `${p}\n    in: ${command}`));
      expect(found).toEqual([]);
    });
  }
});
