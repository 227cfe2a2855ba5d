import { z } from "zod";
import { historyActorSchema } from "@/lib/audit/schemas";
import { integerId } from "@/lib/core/path-id";
import { LISTING_SITES, type ListingSite } from "@/lib/core/listing-sites";
import { LIMIT_MAX, queryInteger } from "@/lib/core/schemas";

// The shapes of listing sites (an organisation's FTP account on Petfinder,
// Adopt-a-Pet or RescueGroups) and of their uploads: request parsing,
// answers, the OpenAPI document and the site's generated types.

/** Each site's own FTP host (what ASM3's sitedefs name): a shelter only types its user name and password. */
export const DEFAULT_HOSTS: Record<ListingSite, string> = {
  petfinder: "members.petfinder.com",
  adoptapet: "autoupload.adoptapet.com",
  rescuegroups: "ftp.rescuegroups.org",
};

/** The sites' own FTP port: their hosts are reached there and nowhere else (a connection test is no probe of their other ports). */
export const SITE_FTP_PORT = 21;

/** The site's own host names, from any kind of site (they all take FTP on SITE_FTP_PORT only). */
export function isSiteHost(host: string): boolean {
  return (Object.values(DEFAULT_HOSTS) as string[]).includes(host.toLowerCase());
}

/**
 * Where the stored password is sent: changing any of these needs the
 * password again in the same request, or a holder of listings:manage could
 * point the account at a server of theirs and have "Upload now" send it there.
 */
export const CONNECTION_FIELDS = ["host", "port", "secure", "username"] as const;

/** Sites that need an account id in the file or its name (Petfinder's shelter ID, RescueGroups' orgID). */
export const NEEDS_ACCOUNT_ID: Record<ListingSite, boolean> = { petfinder: true, adoptapet: false, rescuegroups: true };

/** At most this many listing sites per organisation (one account per site is the norm; a few spare for a move between accounts). */
export const LISTING_SITES_PER_ORGANIZATION = 10;
/** How many uploads GET …/uploads answers with. */
export const UPLOADS_LISTED = 20;

export const listingSiteIdParamsSchema = z.object({ siteId: integerId("listing site") });

export const listingSiteKindSchema = z.enum(LISTING_SITES).meta({ id: "ListingSiteKind", description: "Which site: Petfinder, Adopt-a-Pet or RescueGroups." });

/** A host name or an IP address (no scheme, no path): where the address guard resolves and checks it. */
const hostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "must not be blank")
  .max(253, "must be at most 253 characters")
  .regex(
    /^(\[[0-9a-f:.]+\]|[0-9a-z]([0-9a-z-]{0,61}[0-9a-z])?(\.[0-9a-z]([0-9a-z-]{0,61}[0-9a-z])?)*)$/,
    "must be a host name or an IP address, without scheme or path",
  )
  .meta({
    description:
      "The FTP server. Defaults to the site's own (Petfinder members.petfinder.com, Adopt-a-Pet autoupload.adoptapet.com, RescueGroups ftp.rescuegroups.org). Must resolve to public addresses only.",
    example: "members.petfinder.com",
  });

const portSchema = z.number().int().min(1, "must be at least 1").max(65535, "must be at most 65535").meta({
  // A rule on two fields, which a JSON Schema for each cannot hold: said here (tests/api/document-boundaries.test.ts lists it).
  description:
    "The FTP control port. A listing site's own FTP server (`host` left out, or the site's host) takes 21 only: another port is `400 invalid_body` naming `port`.",
  example: 21,
});
const secureSchema = z.boolean().meta({ description: "Explicit FTPS (AUTH TLS) with a verified certificate." });
const usernameSchema = z
  .string()
  .trim()
  .min(1, "must not be blank")
  .max(200, "must be at most 200 characters")
  .meta({ description: "The FTP user name the site gave the shelter.", example: "ca1234" });
const passwordSchema = z.string().min(1, "must not be empty").max(200, "must be at most 200 characters").meta({
  description: "The FTP password. Stored encrypted and never shown again: no answer, log line, event or metric carries it.",
  writeOnly: true,
  example: "s3cret-ftp",
});
const accountIdSchema = z
  .string()
  .trim()
  .min(1, "must not be blank")
  .max(100, "must be at most 100 characters")
  .regex(/^[A-Za-z0-9._-]+$/, "must be letters, digits, '.', '_' or '-' (it names a file on the server)")
  .meta({
    description:
      "Petfinder's shelter ID (the file is `import/<accountId>`), RescueGroups' orgID (in every row): required for those two (`400 invalid_body` naming `accountId` without it). Adopt-a-Pet takes none (its FTP user name is the account): refused there.",
    example: "CA1234",
  });
const enabledSchema = z.boolean().meta({ description: "Whether changes and the daily run upload to it. A switched-off site keeps its settings and log." });

export const newListingSiteSchema = z
  .strictObject({
    organizationId: z
      .number()
      .int()
      .min(1)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: "The organisation (platform callers only; an organisation's own callers may leave it out)." }),
    site: listingSiteKindSchema,
    host: hostSchema.optional(),
    port: portSchema.default(21),
    secure: secureSchema.default(false),
    username: usernameSchema,
    password: passwordSchema,
    accountId: accountIdSchema.optional(),
    enabled: enabledSchema.default(true),
  })
  .meta({ id: "NewListingSite", description: "An organisation's FTP account on a listing site. Unknown fields are refused." });
export type NewListingSite = z.infer<typeof newListingSiteSchema>;

export const listingSitePatchSchema = z
  .strictObject({
    host: hostSchema.optional(),
    port: portSchema.optional(),
    secure: secureSchema.optional(),
    username: usernameSchema.optional(),
    password: passwordSchema.optional(),
    accountId: accountIdSchema.nullable().optional(),
    enabled: enabledSchema.optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: "must change at least one field" })
  .meta({
    id: "ListingSitePatch",
    description:
      "The fields to change; a new password replaces the old one. Changing `host`, `port`, `secure` or `username` (to a value other than the current one) needs `password` in the same request: the stored one is never sent to another server or account (400 `password_required`).",
  });
export type ListingSitePatch = z.infer<typeof listingSitePatchSchema>;

export const uploadReasonSchema = z
  .enum(["change", "daily", "manual"])
  .meta({ description: "Why it ran: an animal changed, the daily full upload, or someone asked." });
export const uploadOutcomeSchema = z
  .enum(["running", "sent", "failed"])
  .meta({ description: "running until it ends; sent when the file (and photos) are on the server; failed with `error`." });

export const uploadWarningSchema = z
  .object({
    animalId: z.number().int().meta({ description: "The animal's id." }),
    rowId: z.string().meta({ description: "The animal's ID in the file (its externalId, else its id)." }),
    field: z.string().meta({ description: "The field concerned.", example: "breed" }),
    message: z.string().meta({ example: 'Petfinder has no breed "Dorgi": sent as Mixed Breed.' }),
  })
  .meta({ id: "ListingUploadWarning" });

export const listingUploadSchema = z
  .object({
    id: z.number().int(),
    siteId: z.number().int(),
    reason: uploadReasonSchema,
    startedAt: z.string().meta({ format: "date-time" }),
    finishedAt: z.string().nullable().meta({ format: "date-time" }),
    outcome: uploadOutcomeSchema,
    animals: z.number().int().meta({ description: "Animals in the file." }),
    photos: z.number().int().meta({ description: "Photo files sent (unchanged photos are not sent again; Petfinder takes addresses, not files)." }),
    warnings: z.array(uploadWarningSchema),
    error: z.string().nullable().meta({ description: 'Why it failed, with the server\'s answer ("530 Login incorrect.").' }),
  })
  .meta({ id: "ListingUpload" });
export type ListingUpload = z.infer<typeof listingUploadSchema>;

export const listingSiteSchema = z
  .object({
    id: z.number().int(),
    organizationId: z.number().int(),
    site: listingSiteKindSchema,
    host: z.string(),
    port: z.number().int(),
    secure: z.boolean(),
    username: z.string(),
    accountId: z.string().nullable(),
    enabled: z.boolean(),
    lastUpload: listingUploadSchema.nullable().meta({ description: "The newest upload, if any." }),
    lastSentAt: z.string().nullable().meta({ format: "date-time", description: "When the newest successful upload finished." }),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "ListingSite", description: "A listing site account. The password is never shown." });
export type ListingSiteView = z.infer<typeof listingSiteSchema>;

export const listingSitesSchema = z.array(listingSiteSchema).meta({ id: "ListingSites" });
export const listingUploadsSchema = z.array(listingUploadSchema).meta({ id: "ListingUploads" });

export const connectionTestSchema = z
  .object({
    ok: z.boolean(),
    /** The folder listing (names only) when it worked. */
    entries: z.array(z.string()).meta({ description: "Names in the account's root folder." }),
    error: z.string().nullable().meta({
      description: 'Why it failed, in our words ("Login refused: check the user name and password.", "Connection refused."), never the server\'s own text.',
    }),
  })
  .meta({ id: "ListingConnectionTest" });
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

export const connectionTestBodySchema = z
  .strictObject({
    site: listingSiteKindSchema,
    host: hostSchema.optional(),
    port: portSchema.default(21),
    secure: secureSchema.default(false),
    username: usernameSchema,
    password: passwordSchema,
  })
  .meta({ id: "ListingConnectionTestRequest", description: "Credentials to try before saving them: logs in and lists the folder." });
export type ConnectionTestBody = z.infer<typeof connectionTestBodySchema>;

/**
 * Connection tests a caller may make (each logs in at someone's FTP server
 * from the service's one address): per organisation, and per account tried
 * (host and user name, whoever tries it), so that nobody guesses a
 * shelter's password through us, nor gets our address banned by the sites.
 */
export const CONNECTION_TEST_BUDGETS = {
  organization: { perHour: 20 },
  account: { perHour: 5, perDay: 10 },
} as const;

export const LISTING_SITE_AUDIT_ACTIONS = ["created", "updated", "deleted"] as const;
/** The fields a history entry may name: every setting, the password only by name. */
export const LISTING_SITE_AUDITED_FIELDS = ["host", "port", "secure", "username", "password", "accountId", "enabled"] as const;
export type AuditedField = (typeof LISTING_SITE_AUDITED_FIELDS)[number];

const settingsSchema = z
  .object({
    host: z.string().optional(),
    port: z.number().int().optional(),
    secure: z.boolean().optional(),
    username: z.string().optional(),
    accountId: z.string().nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: "ListingSiteSettings", description: "Settings of a listing site as they were (never the password)." });
export type ListingSiteSettings = z.infer<typeof settingsSchema>;

export const listingSiteHistoryEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string().meta({ format: "date-time" }),
    organizationId: z.number().int(),
    siteId: z.number().int().meta({ description: "The listing site (it may have been deleted since)." }),
    site: listingSiteKindSchema,
    action: z.enum(LISTING_SITE_AUDIT_ACTIONS),
    actor: historyActorSchema,
    requestId: z.string().meta({ description: "The request's X-Request-Id: it leads to its log lines." }),
    fields: z
      .array(z.enum(LISTING_SITE_AUDITED_FIELDS))
      .meta({ description: "The fields set (created) or changed (updated); `password` when a new one was given, never its value." }),
    before: settingsSchema.nullable().meta({ description: "The changed fields' values before (updated), every setting (deleted); null for a creation." }),
    after: settingsSchema.nullable().meta({ description: "The changed fields' values after (updated), every setting (created); null for a deletion." }),
  })
  .meta({ id: "ListingSiteHistoryEntry" });
export type ListingSiteHistoryEntry = z.infer<typeof listingSiteHistoryEntrySchema>;

export const LISTING_SITE_HISTORY_DEFAULT = 50;

export const listingSiteHistoryQuerySchema = z.object({
  siteId: queryInteger(1, Number.MAX_SAFE_INTEGER).optional().meta({ description: "Only this listing site's changes (also after it was deleted)." }),
  limit: queryInteger(1, LIMIT_MAX, "int32").default(LISTING_SITE_HISTORY_DEFAULT).meta({ default: LISTING_SITE_HISTORY_DEFAULT }),
  cursor: z.string().min(1, "must not be empty").optional().meta({ description: 'From the previous page\'s `Link: rel="next"`.' }),
});
export type ListingSiteHistoryQuery = z.infer<typeof listingSiteHistoryQuerySchema>;

/** `petfinder.csv`: the pull feed's file name. */
export const listingFeedParamsSchema = z.object({
  organizationId: integerId("organisation"),
  file: z
    .string()
    .regex(/^(petfinder|adoptapet|rescuegroups)\.csv$/, "must be petfinder.csv, adoptapet.csv or rescuegroups.csv")
    .transform((name) => name.slice(0, -4) as ListingSite)
    .meta({ type: "string", enum: LISTING_SITES.map((s) => `${s}.csv`), pattern: undefined, description: "The site's file." }),
});
