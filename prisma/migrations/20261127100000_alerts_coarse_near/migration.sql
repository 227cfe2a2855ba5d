-- Issue 32: an alert's `near` point is kept to 2 decimals (about 1 km), as
-- lib/alerts/service.ts now stores new ones: enough to find the shelters
-- around it, not an adopter's doorstep. Alerts stored before get the same;
-- a ZIP code (a public, coarse centre) stays as it is. The area's box
-- follows (a generated column).
UPDATE "alerts"
   SET "near_lat" = round("near_lat"::numeric, 2)::float8,
       "near_lng" = round("near_lng"::numeric, 2)::float8,
       -- As JavaScript writes the numbers: no trailing zeros ("41.8", "-87", never "41.80").
       "filters" = jsonb_set("filters", '{near}', to_jsonb(
         rtrim(rtrim(round("near_lat"::numeric, 2)::text, '0'), '.') || ',' || rtrim(rtrim(round("near_lng"::numeric, 2)::text, '0'), '.')))
 WHERE "filters" ->> 'near' LIKE '%,%';
