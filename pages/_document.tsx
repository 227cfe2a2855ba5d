import { Head, Html, Main, NextScript } from "next/document";

export default function Document() {
  return (
    <Html lang="en">
      <Head>
        <link rel="icon" href="/icon.svg" type="image/svg+xml" />
        <meta name="theme-color" content="#065f46" />
      </Head>
      <body className="min-h-screen bg-stone-50 text-stone-900 antialiased">
        <Main />
        <NextScript />
      </body>
    </Html>
  );
}
