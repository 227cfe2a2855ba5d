import { z } from "zod";
import { LOCALES } from "@/lib/i18n/locales";

/**
 * The language of an adopter's emails (POST /v1/alerts, POST /v1/pets/{id}/applications).
 * Optional, not defaulted here: left out it is English (the services store
 * "en"), and the contract shows it as the optional field it is.
 */
export const localeSchema = z
  .enum(LOCALES, { error: () => `must be one of ${LOCALES.join(", ")}` })
  .optional()
  .meta({
    description:
      "The language of the emails the adopter gets about it: `en` (English, when left out) or `es` (Spanish). The site sends its page's language when it is not English.",
    example: "es",
  });
