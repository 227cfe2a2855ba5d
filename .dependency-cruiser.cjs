// One-way layers (docs/architecture.md), checked by dependency-cruiser in
// `npm run lint` (npm run lint:layers). The rules:
// - no-circular: no circle of files anywhere outside generated code;
// - upward:lib/<unit>: every unit of lib/ (a top-level folder or file) sits at
//   one place in LAYERS (scripts/layers.cjs, bottom first), and may import only
//   units listed before it. A unit importing one listed after it is refused
//   with the rule's comment, which says what it may not reach. Because the
//   order is total, no two lib/ folders can import each other (no folder
//   cycle) either;
// - not-in-layers: a new unit of lib/ must be given its place in LAYERS.
// The code outside lib/ (app, pages, components, scripts, proxy.ts, prisma,
// i18n) is the composition roots' layer: lib/ may never import it.

const { LAYERS } = require("./scripts/layers.cjs");

const UNITS = LAYERS.flatMap((layer) => layer.units.map((unit) => ({ unit, layer: layer.name })));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A unit is a folder lib/<unit>/ or a file lib/<unit>.ts(x). */
const unitPath = (units) => `^lib/(${units.map(escape).join("|")})(/|\\.tsx?$)`;
/** Unit tests sit beside the code and may reach anything (their own circles still count). */
const TESTS = "\\.test\\.tsx?$";
const ROOTS_OUTSIDE_LIB = "^(app|pages|components|scripts|prisma|i18n|e2e|tests)/|^proxy\\.ts$";

const upward = UNITS.slice(0, -1).map(({ unit, layer }, index) => {
  const above = UNITS.slice(index + 1);
  const layerIndex = LAYERS.findIndex((l) => l.name === layer);
  const laterPeers = above.filter((u) => u.layer === layer).map((u) => u.unit);
  const higherLayers = LAYERS.slice(layerIndex + 1).map((l) => l.name);
  const refused = [
    ...(laterPeers.length ? [`the ${layer} listed after it (${laterPeers.join(", ")})`] : []),
    ...(higherLayers.length ? [`the layers above (${higherLayers.join(", ")})`] : []),
  ].join(" nor ");
  return {
    name: `upward:lib/${unit}`,
    severity: "error",
    comment: `lib/${unit} is in layer ${layer}: it may import what lies below it, never ${refused}. The order is scripts/layers.cjs, explained in docs/architecture.md.`,
    from: { path: unitPath([unit]), pathNot: TESTS },
    to: { path: unitPath(above.map((u) => u.unit)) },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A circle of files: put what both need in a module of its own that imports neither (docs/architecture.md).",
      from: { pathNot: "^lib/generated/" },
      to: { circular: true },
    },
    ...upward,
    {
      name: "upward:lib-to-roots",
      severity: "error",
      comment: "lib/ never imports the composition roots (app, pages, components, scripts, prisma, i18n, tests): hand it what it needs instead.",
      from: { path: "^lib/", pathNot: `^lib/site/|${TESTS}` },
      to: { path: ROOTS_OUTSIDE_LIB },
    },
    {
      name: "upward:lib/site-to-roots",
      severity: "error",
      comment: "lib/site (the site's server-side callers of the API) may call route handlers in-process, nothing else outside lib/.",
      from: { path: "^lib/site/", pathNot: TESTS },
      to: { path: ROOTS_OUTSIDE_LIB, pathNot: "^app/v1/.+/route\\.ts$" },
    },
    {
      name: "not-in-layers",
      severity: "error",
      comment: "Every top-level unit of lib/ has a place in .dependency-cruiser.cjs LAYERS (and a line in docs/architecture.md).",
      from: { path: "^lib/", pathNot: `${unitPath(UNITS.map((u) => u.unit))}|^lib/generated/|${TESTS}` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next[^/]*|lib/generated|e2e/clients|\\.data|test-results|playwright-report)/" },
    // Type-only imports count: a type from a higher layer ties the code to it as much as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
