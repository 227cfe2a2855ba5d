import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import { SiteHeader } from "@/components/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Petstore: adopt an animal", template: "%s · Petstore" },
  description: "Find an animal to adopt: dogs, cats, rabbits, birds, reptiles and small mammals waiting for a home.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#065f46" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: the CSP nonce (proxy.ts) differs each
  // time, and Next can only stamp it on its scripts in a dynamic render.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-stone-50 text-stone-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-emerald-900 focus:shadow"
        >
          Skip to content
        </a>
        {/* No react-query provider here: the browse page does without it
            (its first load's JavaScript budget); the pages that use it have
            it in their own layout (components/providers.tsx). */}
        <SiteHeader />
        <main id="main" className="mx-auto max-w-6xl px-4 py-6">
          {children}
        </main>
      </body>
    </html>
  );
}
