import { z } from "zod";
import { nearSchema, withinNeedsNear, withinSchema } from "@/lib/organizations/geo";
import { idListSchema, idSchema, IDS_MAX, LIMIT_DEFAULT, LIMIT_MAX, queryInteger, searchSchema, SEARCH_MAX } from "@/lib/core/schemas";
import { STORABLE_ISSUE, storable } from "@/lib/core/text";

// Organisations: the shelters and rescues animals are at. The one source of
// their shapes: requests are parsed, answers typed, the OpenAPI document and
// the staff profile form derived from these schemas.

export const ORG_NAME_MAX = 200;
export const SLUG_MAX = 100;

/** ISO 3166-1 alpha-2: every assigned code. */
export const COUNTRY_CODES = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ " +
  "DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT " +
  "JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI " +
  "NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK " +
  "TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");
const COUNTRIES = new Set(COUNTRY_CODES);

// Lengths as zod constraints (after trimming), so that the document states them; zod 4 counts
// characters (code points), as JSON Schema and the database do.
const text = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .trim()
    .min(1, "must not be blank")
    .max(max, `must be at most ${max} characters`)
    .refine(storable, STORABLE_ISSUE);

/** Optional text: null (or omitted) when unknown; blank is refused rather than stored. */
const optionalText = (max: number) => text(max).nullable();

export const slugSchema = z
  .string({ error: () => "must be a string" })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case letters and digits in words joined by single hyphens, e.g. lakeshore-rescue")
  .max(SLUG_MAX, `must be at most ${SLUG_MAX} characters`)
  .meta({ description: "URL-safe and unique: the shelter's page is `/shelters/<slug>`.", example: "lakeshore-animal-rescue" });

export const countrySchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => COUNTRIES.has(s), "must be an ISO 3166-1 alpha-2 country code, e.g. US")
  // A pattern, not the enum of codes: lower case is taken too, and the site's typed forms keep a string.
  .meta({
    description: "An assigned ISO 3166-1 alpha-2 country code (lower case is taken too).",
    example: "US",
    pattern: "^[A-Za-z]{2}$",
    minLength: 2,
    maxLength: 2,
  });

const streetSchema = optionalText(200).meta({ example: "233 S Wacker Dr" });
const citySchema = text(100).meta({ example: "Chicago" });
const regionSchema = optionalText(100).meta({ description: "State, province or county (e.g. `IL`); null when none.", example: "IL" });
const postcodeSchema = optionalText(20).meta({
  description: "Postal code; a US ZIP code also places the organisation when `location` is not given.",
  example: "60606",
});

export const addressSchema = z
  .object({ street: streetSchema, city: citySchema, region: regionSchema, postcode: postcodeSchema, country: countrySchema })
  .meta({ id: "Address", description: "Where the organisation is." });
export type Address = z.infer<typeof addressSchema>;

/** An address as given: street, region and postcode may be left out. */
export const addressInputSchema = z
  .strictObject({
    street: streetSchema.default(null),
    city: citySchema,
    region: regionSchema.default(null),
    postcode: postcodeSchema.default(null),
    country: countrySchema,
  })
  .meta({ id: "AddressInput", description: "Where the organisation is: `city` and `country` are required." });

/** An address in a merge patch: the fields sent change (null removes street, region or postcode), the others keep their values. */
export const addressPatchSchema = z
  .strictObject(
    {
      street: streetSchema.optional(),
      city: citySchema.optional(),
      region: regionSchema.optional(),
      postcode: postcodeSchema.optional(),
      country: countrySchema.optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "is not an address field (street, city, region, postcode, country)" : undefined) },
  )
  .meta({ id: "AddressPatch", description: "The address fields to change; the others keep their values." });
export type AddressPatch = z.infer<typeof addressPatchSchema>;

export const locationSchema = z
  .strictObject({
    lat: z
      .number({ error: () => "must be a number" })
      .min(-90, "must be from -90 to 90")
      .max(90, "must be from -90 to 90")
      .meta({ example: 41.8786 }),
    lng: z
      .number({ error: () => "must be a number" })
      .min(-180, "must be from -180 to 180")
      .max(180, "must be from -180 to 180")
      .meta({ example: -87.6359 }),
  })
  .meta({ id: "Location", description: "Latitude and longitude in decimal degrees (WGS 84)." });

export const emailSchema = z
  .string({ error: () => "must be a string or null" })
  .trim()
  .max(254, "must be at most 254 characters")
  .pipe(z.email("must be an email address, like adopt@shelter.example"))
  .meta({ format: "email", maxLength: 254 })
  .nullable()
  .meta({ example: "adopt@lakeshore.example" });

/** What a phone field accepts (after trimming), stated to the document as it is checked. */
const PHONE_PATTERN = /^[0-9+()\-. /]{5,}$/;

export const phoneSchema = z
  .string({ error: () => "must be a string or null" })
  .trim()
  .max(40, "must be at most 40 characters")
  .refine((s) => PHONE_PATTERN.test(s), "must be a phone number (digits, spaces, + ( ) - .)")
  .meta({ pattern: PHONE_PATTERN.source, maxLength: 40 })
  .nullable()
  .meta({ description: "Digits, spaces and + ( ) - . (at least 5).", example: "+1 312 555 0100" });

const websiteSchema = z
  .string({ error: () => "must be a string or null" })
  .trim()
  .max(2048, "must be at most 2048 characters")
  .refine((s) => {
    try {
      const url = new URL(s);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
    } catch {
      return false;
    }
  }, "must be an http(s) address, e.g. https://lakeshore.example")
  .meta({ format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]*\\.", maxLength: 2048 })
  .nullable()
  .meta({ description: "An http(s) address whose host has a dot.", example: "https://lakeshore.example" });

/**
 * An IANA time zone name ("Europe/Paris", "UTC"): a shelter's calendar and an
 * adopter's digest hour. Offsets ("+01:00") are refused although Intl may take
 * them: PostgreSQL reads such strings as POSIX zones, with the sign the other
 * way round. Whether the database knows the zone is checked where it is stored
 * (queries.databaseKnowsTimeZone).
 */
const TIME_ZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
export const ianaTimeZoneSchema = z
  .string({ error: () => "must be an IANA time zone name, e.g. America/Chicago" })
  .trim()
  .max(64, "must be at most 64 characters")
  .refine((tz) => {
    if (!TIME_ZONE_PATTERN.test(tz)) return false;
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone name, e.g. America/Chicago")
  // `format` names the rule a pattern cannot state (a zone the time zone database knows, aliases
  // included, as browsers report them); the pattern and length are the part it can.
  .meta({ format: "iana-time-zone", pattern: TIME_ZONE_PATTERN.source, maxLength: 64 });

/** The shelter's IANA time zone: its records' days and report months are there (lib/stays, docs/decisions/023). */
export const organizationTimeZoneSchema = ianaTimeZoneSchema.meta({
  description:
    "The shelter's time zone (IANA name, e.g. America/Chicago): a date given without a time is midnight of that day there, and the monthly report's months are its calendar months. Days already recorded do not move when it changes.",
  example: "America/Chicago",
});

export const organizationNameSchema = text(ORG_NAME_MAX).meta({
  description: `1 to ${ORG_NAME_MAX} characters after trimming.`,
  example: "Lakeshore Animal Rescue",
});

export const organizationSchema = z
  .object({
    id: idSchema.meta({ description: "The organisation's identifier (`organizationId` of its animals)." }),
    name: z.string().meta({ example: "Lakeshore Animal Rescue" }),
    slug: z.string().meta({ description: "URL-safe and unique: the shelter's page is `/shelters/<slug>`.", example: "lakeshore-animal-rescue" }),
    email: z.string().nullable().meta({ example: "adopt@lakeshore.example" }),
    phone: z.string().nullable().meta({ example: "+1 312 555 0100" }),
    website: z.string().nullable().meta({ format: "uri", example: "https://lakeshore.example" }),
    address: addressSchema
      .nullable()
      .meta({ description: "Null only for the organisation an older install's data was moved into, until its staff give its address." }),
    location: locationSchema
      .nullable()
      .meta({ description: "Where its animals are: searches near a place measure from here. Null until known (then near searches do not find it)." }),
    timeZone: z.string().meta({
      description:
        "The shelter's time zone (IANA): its calendar for the records' days (a date without a time is midnight there) and the monthly report's months. `UTC` until set.",
      example: "America/Chicago",
    }),
    createdAt: z.string().meta({ format: "date-time", example: "2026-11-26T09:30:00.000Z" }),
    distanceKm: z
      .number()
      .optional()
      .meta({ description: "Great-circle distance from `near` in kilometres, to one decimal. Only in answers to a search with `near`.", example: 12.4 }),
  })
  .meta({ id: "Organization", description: "A shelter or rescue: animals, staff and API keys belong to one." });
export type Organization = z.infer<typeof organizationSchema>;

export const organizationsSchema = z.array(organizationSchema).meta({ id: "Organizations" });

/** POST /v1/organizations. */
export const newOrganizationSchema = z
  .strictObject({
    name: organizationNameSchema,
    slug: slugSchema.optional().meta({ description: "Made from the name when not given (and made unique with a number)." }),
    email: emailSchema.default(null),
    phone: phoneSchema.default(null),
    website: websiteSchema.default(null),
    address: addressInputSchema,
    location: locationSchema.optional().meta({
      description: "Optional when `address.country` is `US` and `address.postcode` is a US ZIP code: the ZIP code's centre is used. Otherwise required.",
    }),
    timeZone: organizationTimeZoneSchema.default("UTC"),
  })
  .meta({ id: "NewOrganization", description: "A new shelter or rescue. Unknown fields are refused (400 `invalid_body` naming each)." });
export type NewOrganization = z.infer<typeof newOrganizationSchema>;
export type NewOrganizationInput = z.input<typeof newOrganizationSchema>;

export const ORGANIZATION_PATCH_FIELDS = ["name", "slug", "email", "phone", "website", "address", "location", "timeZone"] as const;

/**
 * PATCH /v1/organizations/{organizationId}: a JSON merge patch (RFC 7396).
 * `address` merges field by field (null removes street, region or postcode);
 * `location` is replaced whole. A changed US postcode without a location
 * moves the organisation to that ZIP code's centre; `location: null` puts it
 * back there after an explicit position (the staff profile page's "place it
 * from the ZIP code"), since nothing else could ask for that.
 */
export const organizationPatchSchema = z
  .strictObject(
    {
      name: organizationNameSchema.optional(),
      slug: slugSchema.optional(),
      email: emailSchema.optional(),
      phone: phoneSchema.optional(),
      website: websiteSchema.optional(),
      address: addressPatchSchema.optional(),
      location: locationSchema.nullable().optional().meta({
        description:
          "The exact position; `null` places the organisation at the centre of its address's US ZIP code instead (`unknown_location` when it has none).",
      }),
      timeZone: organizationTimeZoneSchema.optional(),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? `is not a field that can be changed (${ORGANIZATION_PATCH_FIELDS.join(", ")})` : undefined) },
  )
  .refine((patch) => ORGANIZATION_PATCH_FIELDS.some((field) => patch[field] !== undefined), "must change at least one field")
  .meta({ id: "OrganizationPatch", description: "The fields to change; the others keep their values.", minProperties: 1 });
export type OrganizationPatch = z.infer<typeof organizationPatchSchema>;
export type OrganizationPatchInput = z.input<typeof organizationPatchSchema>;

export const organizationIdParamsSchema = z.object({
  organizationId: queryInteger(1, Number.MAX_SAFE_INTEGER).meta({ description: "Identifier of the organisation.", example: 1 }),
});

export const listOrganizationsQuerySchema = z
  .object({
    limit: queryInteger(1, LIMIT_MAX, "int32")
      .default(LIMIT_DEFAULT)
      .meta({ description: "Maximum number of organisations returned (1 to 100).", example: 20, default: LIMIT_DEFAULT }),
    q: searchSchema.optional().meta({
      description: `Only organisations whose name contains this text, ignoring case and accents; 1 to ${SEARCH_MAX} characters after trimming.`,
      example: "rescue",
    }),
    id: idListSchema.optional().meta({ description: `Only these organisations (comma-separated ids, at most ${IDS_MAX}).`, example: [1, 2] }),
    slug: slugSchema.optional().meta({
      description: "Only the organisation with this slug (an empty list when there is none): how its page `/shelters/<slug>` finds it.",
      example: "lakeshore-animal-rescue",
    }),
    near: nearSchema.optional(),
    within: withinSchema.optional(),
    cursor: z.string().min(1, "must not be empty").optional().meta({ description: "Opaque paging cursor, taken from a `Link` header; never built by hand." }),
  })
  .superRefine(withinNeedsNear);
export type ListOrganizationsQuery = z.infer<typeof listOrganizationsQuerySchema>;
