import { z } from "zod";

// Imported first by every browser module that builds or uses a schema (the
// staff forms): only there, since importing it pulls zod (some 30 kB) into
// the page's JavaScript. zod 4
// compiles object parsers with `new Function` unless told not to, and its
// probe for that alone is reported by the browser as a violation of our CSP
// (script-src without 'unsafe-eval'), even though zod catches the failure.
// Interpreted parsing is plenty fast for forms. Browser only: the server's
// handlers keep their compiled parsers.
if (typeof window !== "undefined") z.config({ jitless: true });
