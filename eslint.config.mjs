import next from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...next,
  ...nextTs,
  {
    rules: {
      // Plain links on purpose, everywhere: next/link costs every page 2.5 kB
      // of JavaScript (the first page's budget is 150 kB), the header is
      // rendered on the server per page, and the browse page handles its own
      // clicks. docs/decisions/008-speed.md.
      "@next/next/no-html-link-for-pages": "off",
    },
  },
  {
    // CommonJS by its extension: the dependency-cruiser configuration and the layers it reads.
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    ignores: [
      ".next/**",
      "scripts/bench-empty-next/.next/**",
      ".next-*/**",
      ".data/**",
      "node_modules/**",
      "lib/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
];

export default config;
