/**
 * The Node.js the project runs on, checked first thing by every entry point
 * (imported for its effect before anything else, so an older Node stops here
 * with one sentence instead of failing later somewhere obscure).
 *
 * The supported versions are package.json's `engines.node`; the binaries are
 * its optionalDependencies (`node-<platform>-<arch>`), which npm installs for
 * the machine's platform and links as node_modules/.bin/node, the `node` every
 * npm script runs (docs/decisions/015-node-runtime.md). So `npm start` runs on
 * it whatever the system's Node is; a script run by hand with another Node
 * is told which one it needs and how to get it.
 *
 * Plain code with no dependencies: it must run on the old Node it refuses.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type Version = [major: number, minor: number, patch: number];

const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text.replace(/^v/, "").split(".").map(Number);
  return [major, minor, patch];
};

const atLeast = (version: Version, minimum: Version) => {
  for (let i = 0; i < 3; i++) if (version[i] !== minimum[i]) return version[i]! > minimum[i]!;
  return true;
};

/** What package.json says: the minimum version (`engines.node`, written `>=X.Y`) and the platforms it brings a binary for. */
export function runtimeManifest(pkg: { engines?: { node?: string }; optionalDependencies?: Record<string, string> }): {
  minimum: string;
  binaries: Record<string, string>;
} {
  const range = pkg.engines?.node ?? "";
  const match = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim());
  if (!match) throw new Error(`package.json's engines.node must read ">=X.Y" (it reads "${range}")`);
  const binaries: Record<string, string> = {};
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const platform = /^node-(\w+-\w+)$/.exec(name)?.[1];
    if (platform) binaries[platform] = version;
  }
  return { minimum: match[1]!, binaries };
}

/** npm's name for a platform, as the node-<platform>-<arch> packages spell it. */
export const platformName = (platform: string, arch: string) => `${platform === "win32" ? "win" : platform}-${arch}`;

/**
 * Why this Node cannot run the project, as one sentence; undefined when it can.
 * `installed` is the version of the binary npm installed here, if any.
 */
export function runtimeProblem(input: {
  version: string;
  execPath: string;
  minimum: string;
  binaries: Record<string, string>;
  platform: string;
  installed: string | undefined;
}): string | undefined {
  if (atLeast(parse(input.version), parse(input.minimum))) return undefined;
  const major = parse(input.minimum)[0];
  const needs = `Petstore needs Node.js ${input.minimum} or later, and this is Node.js ${input.version} (${input.execPath})`;
  if (input.installed) {
    return `${needs}: run it through npm (npm start, npm test, npm run cli -- ...), which runs the Node.js ${input.installed} that npm install put in node_modules/.bin.`;
  }
  if (input.binaries[input.platform]) {
    return `${needs}: run npm install, which brings Node.js ${input.binaries[input.platform]} for this machine into node_modules/.bin, then run it through npm (npm start, npm test).`;
  }
  return (
    `${needs}: npm install brings one for ${Object.keys(input.binaries).join(", ")} but not for ${input.platform}, ` +
    `so install Node.js ${major} yourself (https://nodejs.org/en/download, or \`nvm install\` in this folder, which reads .nvmrc).`
  );
}

/** The version of the Node.js binary npm installed for this platform, if it did. */
function installedBinary(platform: string): string | undefined {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", `node-${platform}`, "package.json"), "utf8")) as { version?: string };
    return pkg.version;
  } catch {
    return undefined;
  }
}

function exitUnlessSupported(): void {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const { minimum, binaries } = runtimeManifest(pkg);
  const platform = platformName(process.platform, process.arch);
  const problem = runtimeProblem({
    version: process.versions.node,
    execPath: process.execPath,
    minimum,
    binaries,
    platform,
    installed: installedBinary(platform),
  });
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}

exitUnlessSupported();
