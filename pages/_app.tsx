import type { AppProps } from "next/app";
import "@/app/globals.css";

// The Pages Router holds one page, the API reference (pages/docs.tsx), served
// without any JavaScript; everything else is the App Router's (app/).
export default function App({ Component, pageProps }: AppProps) {
  return <Component {...pageProps} />;
}
