import { z } from "zod";
import { DEFAULT_LOCALE, LOCALES } from "@/lib/i18n/locales";

/** The language of an adopter's emails (POST /v1/alerts, POST /v1/pets/{id}/applications). */
export const localeSchema = z
  .enum(LOCALES, { error: () => `must be one of ${LOCALES.join(", ")}` })
  .default(DEFAULT_LOCALE)
  .meta({ description: "The language of the emails the adopter gets about it: `en` (English, the default) or `es` (Spanish). The site sends its page's language.", example: "es" });
